import type { OrgScope } from '../../src/library/org-scope.ts';

type Body = Record<string, unknown>;
type Page = { info: Record<string, unknown>; data: Record<string, unknown>[] };

/** Follows next_cursor from the first page to the last; returns every page. */
export async function allPages(org: OrgScope, name: string, body: Body, limit: number): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const page = (await org.report(name)({ ...body, limit, ...(cursor ? { cursor } : {}) })) as Page;
    pages.push(page);
    cursor = page.info.next_cursor as string | null;
    if (pages.length > 10_000) throw new Error('runaway pagination');
  } while (cursor);
  return pages;
}

export async function streamEvents(
  org: OrgScope,
  name: string,
  body: Body,
): Promise<{ event: string; data: Record<string, unknown> }[]> {
  const events: { event: string; data: Record<string, unknown> }[] = [];
  for await (const e of org.stream(name)(body)) events.push(e);
  return events;
}
