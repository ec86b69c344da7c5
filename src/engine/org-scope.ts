import { NotFoundError, ServerBusyError } from '../errors.ts';
import type { CursorCodec } from '../query/cursor.ts';
import type { CallContext, EndpointInput, EndpointResult, RowsResult } from '../reports/endpoint.ts';
import { jsonOnly, rowsFor } from '../formats/encode.ts';
import { formatOf, type FormatName } from '../formats/format-names.ts';
import { encodeJson, type JsonResult } from '../formats/json.ts';
import type { Routes } from '../reports/routes.ts';
import { withBudget } from './budget.ts';
import type { EngineCore } from './core.ts';
import { requireTables } from './operation-tables.ts';
import { extensionQuery, pageAs, parseJson, streamAs, type CallOptions, type JsonObject, type ReportCall, type ReportOptions, type StreamCall } from './report-calls.ts';

export type { CallOptions, JsonObject, ReportCall, ReportOptions, StreamCall };

const reportInput = (body: object | undefined, options: ReportOptions): EndpointInput => ({ body, query: extensionQuery(options), format: formatOf(options.format) });
/**
 * `reports.<name>(body, options?)` answers `{info, data}` (or an Arrow Table, CSV… with `{format}`);
 * `reports.<name>Stream(body, options?)` yields `{event, data}` (or record batches, text, bytes).
 */
export type ReportsApi = { [name: `${string}Stream`]: StreamCall } & { [name: string]: ReportCall };

/**
 * An organization's view of the engine. Every method of `reports` and `resources` is generated from
 * the registry and runs as that organization: another organization's objects are refused. A call
 * other than a stream runs under the engine's time budget; `{ signal }` stops it sooner.
 */
export class OrgScope {
  readonly reports: ReportsApi = {} as ReportsApi;
  readonly resources: Record<string, (input?: EndpointInput, options?: CallOptions) => Promise<JsonObject>> = {};

  constructor(
    private readonly core: EngineCore,
    private readonly routes: Routes,
    readonly id: string,
    private readonly cursors: CursorCodec,
  ) {
    const budget = <T>(options: CallOptions | undefined, fn: (signal: AbortSignal) => Promise<T>) => withBudget(core.limits.timeBudgetMs, options?.signal, fn);
    for (const endpoint of routes.endpoints) {
      const target = endpoint.group === 'reports' ? (this.reports as Record<string, unknown>) : (this.resources as Record<string, unknown>);
      if (endpoint.stream) {
        target[endpoint.name] = (body?: object, options: ReportOptions = {}) => this.events(endpoint.path, endpoint.method, body, options);
      } else if (endpoint.group === 'reports') {
        target[endpoint.name] = (body?: object, options: ReportOptions = {}) =>
          budget(options, async (signal) => pageAs(await this.invoke(endpoint.method, endpoint.path, reportInput(body, options), signal), formatOf(options.format), endpoint.path, { duckdb: this.core.pool, tempDisk: this.core.tempDisk, csvRaw: options.csvRaw === true }));
      } else {
        target[endpoint.name] = (input?: EndpointInput, options?: CallOptions) => budget(options, async (signal) => parseJson(await this.invoke(endpoint.method, endpoint.path, input ?? {}, signal)));
      }
    }
  }

  context(signal?: AbortSignal): CallContext {
    if (!this.core.catalog.hasOrganization(this.id)) throw new NotFoundError(`organization ${this.id} not found`);
    return { organizationId: this.id, core: this.core, now: this.core.clock(), cursors: this.cursors, signal };
  }

  /** Calls an operation by method and path, exactly as the REST service would (with no time budget of its own), and gives its answer as JSON text or SSE events. */
  async call(method: string, path: string, input: EndpointInput = {}, signal?: AbortSignal): Promise<JsonResult> {
    return encodeJson(await this.invoke(method, path, input, signal));
  }

  /** Calls an operation by method and path; a report's answer comes as a rows result, not yet encoded (see src/formats). */
  async invoke(method: string, path: string, input: EndpointInput = {}, signal?: AbortSignal): Promise<EndpointResult> {
    const match = this.routes.match(method, path);
    if (!match) throw new NotFoundError(`no operation ${method.toUpperCase()} ${path}`);
    requireTables(match.endpoint.path, this.core.missingTables);
    return match.endpoint.handle({ ...input, params: { ...match.params, ...input.params } }, this.context(signal));
  }

  /**
   * Calls a report by method and path for a table format (see src/formats): its rows, not yet encoded.
   * An operation that answers no rows is refused before it runs, so nothing changes.
   */
  async invokeRows(method: string, path: string, input: EndpointInput, format: FormatName, signal?: AbortSignal): Promise<RowsResult> {
    const match = this.routes.match(method, path);
    if (match && match.endpoint.group !== 'reports') throw jsonOnly(path, format);
    return rowsFor(await this.invoke(method, path, input, signal), format, path);
  }

  /** A stream holds one of the engine's stream slots from its first pull until it ends or the caller stops. */
  private async *events(path: string, method: string, body: object | undefined, options: ReportOptions & CallOptions) {
    const release = this.core.streams.take();
    if (!release) throw new ServerBusyError(this.core.streams.max);
    try {
      yield* streamAs(await this.invoke(method, path, reportInput(body, options), options.signal), formatOf(options.format), path, { duckdb: this.core.pool, tempDisk: this.core.tempDisk, csvRaw: options.csvRaw === true });
    } finally {
      release();
    }
  }
}
