import { NotFoundError, ServerBusyError } from '../errors.ts';
import type { CursorCodec } from '../query/cursor.ts';
import type { CallContext, EndpointInput, EndpointResult, RowsResult } from '../reports/endpoint.ts';
import { jsonOnly, rowsFor } from '../formats/encode.ts';
import { formatOf, type FormatName } from '../formats/format-names.ts';
import { encodeJson, type JsonResult } from '../formats/json.ts';
import type { Routes } from '../reports/routes.ts';
import { withBudget } from '../engine/budget.ts';
import type { EngineCore } from '../engine/core.ts';
import { requireTables } from '../engine/operation-tables.ts';
import {
  extensionQuery,
  pageAs,
  parseJson,
  streamAs,
  type CallOptions,
  type Explained,
  type JsonObject,
  type JsonValue,
  type Page,
  type ReportCall,
  type ReportEvent,
  type ReportOptions,
  type StreamCall,
} from './report-calls.ts';
import type { ReportTypes, StreamedReport } from '../reports/report-types.ts';
import type { ResourceAnswers, ResourceName } from '../engine/resource-types.ts';

export type { CallOptions, Explained, JsonObject, JsonValue, Page, ReportCall, ReportEvent, ReportOptions, StreamCall };

const reportInput = (body: object | undefined, options: ReportOptions): EndpointInput => ({
  body,
  query: extensionQuery(options),
  format: formatOf(options.format),
});
/**
 * `reports.<name>(body, options?)` answers `{info, data}` (or an Arrow Table, CSV… with `{format}`);
 * `reports.<name>Stream(body, options?)` yields `{event: 'summary'}` then `{event: 'result'}` per row
 * (or record batches, text, bytes). Bodies and answers are typed per report (src/reports/report-types.ts).
 */
export type ReportsApi = {
  readonly [K in keyof ReportTypes]: ReportCall<
    Body<ReportTypes[K]['body']>,
    Page<ReportTypes[K]['info'], ReportTypes[K]['row']>
  >;
} & {
  readonly [K in StreamedReport as `${K}Stream`]: StreamCall<
    Body<ReportTypes[K]['body']>,
    ReportEvent<ReportTypes[K]['summary'], ReportTypes[K]['row']>
  >;
};

/** A body as written: its lists may be readonly (`as const`), since the engine never changes a body. */
export type Body<T> = T extends readonly (infer E)[]
  ? readonly Body<E>[]
  : T extends object
    ? { readonly [K in keyof T]: Body<T[K]> }
    : T;

/** A resource method: its path parameters, query and body as the REST service reads them, and its JSON answer. */
export type ResourceCall<Answer = JsonObject> = (input?: ResourceInput, options?: CallOptions) => Promise<Answer>;

export interface ResourceInput {
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string | string[] | undefined>>;
  readonly body?: unknown;
}

/** Every resource method by name (src/engine/resource-types.ts): a misspelt one does not compile. */
export type ResourcesApi = {
  readonly [K in ResourceName]: ResourceCall<K extends keyof ResourceAnswers ? ResourceAnswers[K] : JsonObject>;
};

/**
 * An organization's view of the engine. Every method of `reports` and `resources` is generated from
 * the registry and runs as that organization: another organization's objects are refused. A call
 * other than a stream runs under the engine's time budget; `{ signal }` stops it sooner.
 */
export class OrgScope {
  readonly reports: ReportsApi = {} as ReportsApi;
  readonly resources: ResourcesApi = {} as ResourcesApi;
  private readonly streamNames = new Set<string>();

  constructor(
    private readonly core: EngineCore,
    private readonly routes: Routes,
    readonly id: string,
    private readonly cursors: CursorCodec,
  ) {
    const budget = <T>(options: CallOptions | undefined, fn: (signal: AbortSignal) => Promise<T>) =>
      withBudget(core.limits.timeBudgetMs, options?.signal, fn);
    for (const endpoint of routes.endpoints) {
      if (endpoint.group === 'reports' && endpoint.stream) this.streamNames.add(endpoint.name);
      const target =
        endpoint.group === 'reports'
          ? (this.reports as Record<string, unknown>)
          : (this.resources as Record<string, unknown>);
      if (endpoint.stream) {
        target[endpoint.name] = (body?: object, options: ReportOptions = {}) =>
          this.events(endpoint.path, endpoint.method, body, options);
      } else if (endpoint.group === 'reports') {
        target[endpoint.name] = (body?: object, options: ReportOptions = {}) =>
          budget(options, async (signal) =>
            pageAs(
              await this.invoke(endpoint.method, endpoint.path, reportInput(body, options), signal),
              formatOf(options.format),
              endpoint.path,
              { duckdb: this.core.pool, tempDisk: this.core.tempDisk, csvRaw: options.csvRaw === true },
            ),
          );
      } else {
        target[endpoint.name] = (input?: EndpointInput, options?: CallOptions) =>
          budget(options, async (signal) =>
            parseJson(await this.invoke(endpoint.method, endpoint.path, input ?? {}, signal)),
          );
      }
    }
  }

  /**
   * A report's page method by a name known only at run time (a CLI argument, a loop over the registry):
   * its body and answer are untyped. Throws NotFoundError for a name that is not a report page.
   */
  report(name: string): ReportCall {
    const call =
      Object.hasOwn(this.reports, name) && !this.streamNames.has(name)
        ? (this.reports as unknown as Record<string, ReportCall>)[name]
        : undefined;
    if (!call) throw new NotFoundError(`no report ${name}`);
    return call;
  }

  /** A report's stream by the report's name (`stream('visibility')` is `reports.visibilityStream`), untyped; NotFoundError when it has none. */
  stream(name: string): StreamCall {
    const call = this.streamNames.has(`${name}Stream`)
      ? (this.reports as unknown as Record<string, StreamCall>)[`${name}Stream`]
      : undefined;
    if (!call) throw new NotFoundError(`no report stream ${name}Stream`);
    return call;
  }

  /** A resource method by a name known only at run time; NotFoundError for an unknown name. */
  resource(name: string): ResourceCall {
    const call = Object.hasOwn(this.resources, name)
      ? (this.resources as unknown as Record<string, ResourceCall>)[name]
      : undefined;
    if (!call) throw new NotFoundError(`no resource ${name}`);
    return call;
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
  async invokeRows(
    method: string,
    path: string,
    input: EndpointInput,
    format: FormatName,
    signal?: AbortSignal,
  ): Promise<RowsResult> {
    const match = this.routes.match(method, path);
    if (match && match.endpoint.group !== 'reports') throw jsonOnly(path, format);
    return rowsFor(await this.invoke(method, path, input, signal), format, path);
  }

  /** A stream holds one of the engine's stream slots from its first pull until it ends or the caller stops. */
  private async *events(path: string, method: string, body: object | undefined, options: ReportOptions & CallOptions) {
    const release = this.core.streams.take();
    if (!release) throw new ServerBusyError(this.core.streams.max);
    try {
      yield* streamAs(
        await this.invoke(method, path, reportInput(body, options), options.signal),
        formatOf(options.format),
        path,
        { duckdb: this.core.pool, tempDisk: this.core.tempDisk, csvRaw: options.csvRaw === true },
      );
    } finally {
      release();
    }
  }
}
