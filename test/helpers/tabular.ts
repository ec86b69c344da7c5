import type { OrgScope } from '../../src/library/org-scope.ts';

export type Body = Record<string, unknown>;
export interface TabularRow {
  metrics: (number | null)[];
  dimensions: (string | null)[];
}
export interface TabularResponse {
  info: { total_rows: number; query: Record<string, unknown> };
  data: TabularRow[];
}

export async function tabular(org: OrgScope, name: string, body: Body): Promise<TabularResponse> {
  return (await org.report(name)(body)) as unknown as TabularResponse;
}

/** Floats compared to 12 significant digits: the engine and the reference add shares in other orders. */
export const rounded = (rows: TabularRow[]) =>
  rows.map((r) => ({
    ...r,
    metrics: r.metrics.map((m) => (typeof m === 'number' && !Number.isInteger(m) ? Number(m.toPrecision(12)) : m)),
  }));

export async function streamed(
  org: OrgScope,
  name: string,
  body: Body,
): Promise<{ event: string; data: Record<string, unknown> }[]> {
  const events: { event: string; data: Record<string, unknown> }[] = [];
  for await (const e of org.stream(name)(body)) events.push(e);
  return events;
}
