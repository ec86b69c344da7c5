import { tableFromIPC } from 'apache-arrow';
import fc from 'fast-check';
import { formatNames, type FormatName } from '../../src/formats/format-names.ts';
import type { Endpoint } from '../../src/reports/endpoint.ts';
import { garbageText, garbageValue, injectionCorpus } from './garbage.ts';
import { sampleValid, type Hints } from './zod-sample.ts';

export interface FuzzRequest {
  readonly kind: 'valid' | 'near-valid' | 'garbage';
  readonly endpoint: Endpoint;
  readonly path: string;
  readonly body: string | undefined;
  readonly query: string;
  /** The `format` query parameter asked for (json when absent), and the answer extensions asked for. */
  readonly format?: FormatName;
  readonly extensions?: readonly string[];
}

export interface FuzzOutcome {
  readonly request: FuzzRequest;
  readonly status: number;
  readonly problem: string | null;
}

const pathSafe = injectionCorpus.filter((s) => !/[\ud800-\udfff]/.test(s));
const allowed = new Set([200, 202, 400, 401, 403, 404, 405, 409, 410, 413, 422, 429, 431]);

function fillPath(endpoint: Endpoint, hints: Hints, rnd: () => number, mutate: boolean): string {
  return endpoint.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    if (mutate && rnd() < 0.5) return encodeURIComponent(pathSafe[Math.floor(rnd() * pathSafe.length)]!);
    return encodeURIComponent(String(hints.value(name, 'uuid') ?? '00000000-0000-4000-8000-000000000000'));
  });
}

function queryString(value: unknown): string {
  if (!value || typeof value !== 'object') return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (Array.isArray(v)) v.forEach((x) => params.append(k, String(x)));
    else if (v !== undefined) params.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

const compares = ['previous_period', 'previous_year', '2026-01-01..2026-01-31'];

/**
 * The query parameters beside the schema's: answer extensions (fill, compare, components) where the endpoint
 * declares them, now and then `explain`, and a `format` (with `csv_raw` for CSV). A near-valid request may
 * ask for an extension the endpoint does not take, or give one a bad value: both are 422s.
 */
function extraQuery(
  endpoint: Endpoint,
  rnd: () => number,
  mutate: boolean,
): { extra: Record<string, string>; format: FormatName; extensions: string[] } {
  const extra: Record<string, string> = {};
  const takes = new Set(endpoint.extensions ?? []);
  if (takes.has('fill') && rnd() < 0.35) extra.fill = 'zero';
  if (takes.has('compare') && rnd() < 0.35) extra.compare = compares[Math.floor(rnd() * compares.length)]!;
  if (takes.has('components') && rnd() < 0.35) extra.components = 'true';
  if (mutate && rnd() < 0.2) {
    const [name, value] = (
      [
        ['fill', rnd() < 0.5 ? 'zero' : 'one'],
        ['compare', rnd() < 0.5 ? 'previous_period' : 'yesterday'],
        ['components', rnd() < 0.5 ? 'true' : 'maybe'],
      ] as const
    )[Math.floor(rnd() * 3)]!;
    extra[name] = value;
  }
  if (rnd() < 0.05) extra.explain = 'true';
  const format = rnd() < 0.5 ? formatNames[Math.floor(rnd() * formatNames.length)]! : 'json';
  if (format !== 'json' || rnd() < 0.1) extra.format = format;
  if (format === 'csv' && rnd() < 0.5) extra.csv_raw = 'true';
  return {
    extra,
    format,
    extensions: Object.keys(extra).filter((k) => k === 'fill' || k === 'compare' || k === 'components'),
  };
}

/** Mutates one field of a valid object: a garbage value, a deletion, or an unknown key. */
function mutate(value: unknown, rnd: () => number, garbage: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return garbage;
  const copy = { ...(value as Record<string, unknown>) };
  const keys = Object.keys(copy);
  const choice = rnd();
  if (keys.length === 0 || choice < 0.15) copy[`unknown_${Math.floor(rnd() * 100)}`] = garbage;
  else if (choice < 0.3) delete copy[keys[Math.floor(rnd() * keys.length)]!];
  else copy[keys[Math.floor(rnd() * keys.length)]!] = garbage;
  return copy;
}

/** Requests across every endpoint: valid ones, ones with one field mutated, and garbage. */
export function fuzzRequests(endpoints: readonly Endpoint[], hints: Hints): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      endpoint: fc.constantFrom(...endpoints),
      kind: fc.constantFrom('valid' as const, 'near-valid' as const, 'near-valid' as const, 'garbage' as const),
      seed: fc.integer(),
      garbage: garbageValue,
      text: garbageText,
    })
    .map(({ endpoint, kind, seed, garbage, text }) => {
      let state = seed >>> 0 || 1;
      const rnd = () => {
        state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
        return state / 4294967296;
      };
      const body = endpoint.schemas.body ? sampleValid(endpoint.schemas.body, 'body', hints, rnd) : undefined;
      const query = endpoint.schemas.query ? sampleValid(endpoint.schemas.query, 'query', hints, rnd) : undefined;
      const path = fillPath(endpoint, hints, rnd, kind !== 'valid');
      const { extra, format, extensions } = extraQuery(endpoint, rnd, kind !== 'valid');
      const asked = { format, extensions };
      const withExtra = (q: unknown) => ({ ...(q && typeof q === 'object' ? q : {}), ...extra });
      if (kind === 'valid')
        return {
          kind,
          endpoint,
          path,
          body: body === undefined ? undefined : JSON.stringify(body),
          query: queryString(withExtra(query)),
          ...asked,
        };
      if (kind === 'near-valid') {
        const target = endpoint.schemas.body || !endpoint.schemas.query ? 'body' : 'query';
        return target === 'body'
          ? {
              kind,
              endpoint,
              path,
              body: JSON.stringify(mutate(body ?? {}, rnd, garbage)),
              query: queryString(withExtra(query)),
              ...asked,
            }
          : {
              kind,
              endpoint,
              path,
              body: undefined,
              query: queryString(withExtra(mutate(query ?? {}, rnd, garbage))),
              ...asked,
            };
      }
      return {
        kind,
        endpoint,
        path,
        body: rnd() < 0.5 ? text : JSON.stringify(garbage),
        query: rnd() < 0.3 ? `?${encodeURIComponent(String(text))}=1` : '',
        format: 'json',
        extensions: [],
      };
    });
}

/** What is wrong with a table format's 200 body, or null: NDJSON lines are JSON, Arrow decodes, Parquet has its magic at both ends. */
function tableProblem(type: string, bytes: Uint8Array): string | null {
  if (type.startsWith('application/x-ndjson')) {
    const bad = Buffer.from(bytes)
      .toString('utf8')
      .split('\n')
      .find((line) => {
        if (line === '') return false;
        try {
          JSON.parse(line);
          return false;
        } catch {
          return true;
        }
      });
    return bad === undefined ? null : `non-JSON NDJSON line: ${bad.slice(0, 100)}`;
  }
  if (type.startsWith('text/csv')) return bytes.length > 0 ? null : 'empty CSV (no header)';
  if (type.startsWith('application/vnd.apache.arrow.stream')) {
    try {
      tableFromIPC(bytes);
      return null;
    } catch (error) {
      return `Arrow stream does not decode: ${(error as Error).message}`;
    }
  }
  if (type.startsWith('application/vnd.apache.parquet')) {
    const magic = (at: number) => Buffer.from(bytes.subarray(at, at + 4)).toString('latin1') === 'PAR1';
    return bytes.length >= 8 && magic(0) && magic(bytes.length - 4) ? null : 'Parquet file without PAR1 at both ends';
  }
  return `unexpected content type ${type}`;
}

/** Sends one request and checks the contract: a 2xx or a documented 4xx with its documented body, never a 5xx or a hang. */
export async function send(base: string, key: string, r: FuzzRequest, timeoutMs = 20_000): Promise<FuzzOutcome> {
  const init: RequestInit = {
    method: r.endpoint.method,
    headers: { 'x-api-key': key, ...(r.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    signal: AbortSignal.timeout(timeoutMs),
  };
  if (r.body !== undefined && r.endpoint.method !== 'GET') init.body = r.body;
  let response: Response;
  let bytes: Uint8Array;
  try {
    response = await fetch(`${base}${r.path}${r.query}`, init);
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    return { request: r, status: 0, problem: `no complete response: ${(error as Error).message}` };
  }
  const text = Buffer.from(bytes).toString('utf8');
  const status = response.status;
  // 406: a table format asked of an operation that answers JSON only.
  if (!allowed.has(status) && !(status === 406 && (r.format ?? 'json') !== 'json'))
    return { request: r, status, problem: `status ${status}: ${text.slice(0, 300)}` };
  const type = response.headers.get('content-type') ?? '';
  if (status === 200 && !type.startsWith('application/json') && !type.startsWith('text/event-stream'))
    return { request: r, status, problem: tableProblem(type, bytes) };
  if (type.startsWith('text/event-stream')) {
    for (const block of text.split('\n\n').filter((b) => b.includes('data:'))) {
      const data = block
        .split('\n')
        .find((l) => l.startsWith('data:'))!
        .slice(6);
      try {
        JSON.parse(data);
      } catch {
        return { request: r, status, problem: `non-JSON SSE data: ${data.slice(0, 100)}` };
      }
    }
    return { request: r, status, problem: null };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { request: r, status, problem: `non-JSON body: ${text.slice(0, 100)}` };
  }
  if (status === 422) {
    const detail = (json as { detail?: unknown }).detail;
    const ok =
      Array.isArray(detail) &&
      detail.length > 0 &&
      detail.every(
        (d: { loc?: unknown; msg?: unknown; type?: unknown }) =>
          Array.isArray(d.loc) && typeof d.msg === 'string' && typeof d.type === 'string',
      );
    return {
      request: r,
      status,
      problem: ok ? null : `422 without an HTTPValidationError body: ${text.slice(0, 200)}`,
    };
  }
  if (status >= 400) {
    const body = json as { detail?: unknown; code?: unknown };
    return {
      request: r,
      status,
      problem:
        typeof body.detail === 'string' && typeof body.code === 'string'
          ? null
          : `${status} without {detail, code}: ${text.slice(0, 200)}`,
    };
  }
  return { request: r, status, problem: null };
}
