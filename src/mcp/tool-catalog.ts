import { z } from 'zod';
import type { Endpoint } from '../reports/endpoint.ts';
import { querySchemaFor } from '../reports/extensions/options.ts';
import { continuation } from './continuation.ts';
import { metricLine, metricsOf } from './report-metrics.ts';

type Json = Record<string, unknown>;

/** Where a tool argument goes in the call: the request body, the query string (extensions) or the path. */
export type Section = 'body' | 'query' | 'params';

/** One MCP tool: an operation of the registry, its arguments and where each goes. */
export interface McpTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Json & { type: 'object' };
  readonly endpoint: Endpoint;
  /** Changes the organization's state (prompts, knowledge-base documents, agents): listed and callable only with writes allowed. */
  readonly write: boolean;
  /** Each argument's section; an argument named nowhere goes to the body, where the strict schema refuses it with a 422 naming it. */
  readonly sections: ReadonlyMap<string, Section>;
  /** A report: its answer states its window, filters, metrics and fingerprint, and an empty one says why. */
  readonly rows: boolean;
}

const toSchema = (schema: z.ZodType): Json =>
  z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Json;

const isWrite = (e: Endpoint) => e.group === 'resources' && e.method !== 'GET' && !e.path.endsWith('/search');

/** The stream operations are not tools: a report tool answers the same rows a bounded page at a time. */
export const servedAsTool = (e: Endpoint) => !e.stream;

function describe(e: Endpoint, write: boolean): string {
  const lines = [`${e.summary}.`, `Same as ${e.method} ${e.path} of the REST API (numbers as it gives them).`];
  if (e.deprecated) lines.push(`Deprecated${e.successor ? `: use ${e.successor}` : ''}.`);
  if (write) lines.push('Changes the organization’s data; honours dry_run where the operation takes it.');
  const defs = metricsOf(e.name);
  if (defs.length > 0) {
    lines.push('Metrics (numerator / denominator [unit]; over scope), also in the resource aea://model/metrics:');
    for (const m of defs) lines.push(`- ${metricLine(m)}`);
  }
  if (e.group === 'reports') {
    const takes = e.extensions ?? [];
    lines.push(
      `Extensions as arguments: explain${takes.map((t) => `, ${t}`).join('')}. The answer holds at most max_rows rows (default 50) and 100 KB of rows, with next_cursor to continue; an empty answer says why (empty_reason).`,
    );
  }
  return lines.join('\n');
}

/** Builds a tool from an endpoint: its input schema joins the path, query and body schemas of the route. */
export function toolOf(e: Endpoint): McpTool {
  const write = isWrite(e);
  const rows = e.group === 'reports';
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const defs: Json = {};
  const sections = new Map<string, Section>();
  const add = (section: Section, schema: z.ZodType | undefined) => {
    if (!schema) return;
    const json = toSchema(schema) as Json & { properties?: Json; required?: string[]; $defs?: Json };
    Object.assign(defs, json.$defs ?? {});
    for (const [name, s] of Object.entries(json.properties ?? {})) {
      if (sections.has(name))
        throw new Error(`${e.method} ${e.path}: argument ${name} is in both ${sections.get(name)} and ${section}`);
      sections.set(name, section);
      properties[name] = s;
    }
    required.push(...(json.required ?? []).filter((n) => section !== 'query'));
  };
  add('params', e.schemas.params);
  add('query', rows ? querySchemaFor(e.extensions ?? []) : e.schemas.query);
  add('body', e.schemas.body);
  if (!write) {
    for (const [name, s] of Object.entries(continuation)) {
      if (sections.has(name))
        throw new Error(`${e.method} ${e.path}: argument ${name} clashes with the continuation arguments`);
      properties[name] = s;
    }
  }
  const inputSchema: Json & { type: 'object' } = {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
  return {
    name: e.name,
    title: e.summary,
    description: describe(e, write),
    inputSchema,
    endpoint: e,
    write,
    sections,
    rows,
  };
}

/** Every tool of an endpoint list, built once on first use: listing them reads no data. */
export class ToolCatalog {
  private built: Map<string, McpTool> | undefined;

  constructor(private readonly endpoints: readonly Endpoint[]) {}

  get tools(): ReadonlyMap<string, McpTool> {
    this.built ??= new Map(this.endpoints.filter(servedAsTool).map((e) => [e.name, toolOf(e)]));
    return this.built;
  }
}
