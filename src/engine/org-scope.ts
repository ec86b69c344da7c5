import { NotFoundError } from '../errors.ts';
import type { CursorCodec } from '../query/cursor.ts';
import type { CallContext, EndpointInput, EndpointResult, RowsResult } from '../reports/endpoint.ts';
import { jsonOnly, rowsFor } from '../formats/encode.ts';
import { formatOf, type FormatName } from '../formats/format-names.ts';
import { encodeJson, type JsonResult } from '../formats/json.ts';
import { endpoints, matchEndpoint } from '../reports/registry.ts';
import type { EngineCore } from './engine.ts';
import { pageAs, parseJson, streamAs, type JsonObject, type ReportCall, type ReportOptions, type StreamCall } from './report-calls.ts';

export type { JsonObject, ReportCall, ReportOptions, StreamCall };
/**
 * `reports.<name>(body, options?)` answers `{info, data}` (or an Arrow Table, CSV… with `{format}`);
 * `reports.<name>Stream(body, options?)` yields `{event, data}` (or record batches, text, bytes).
 */
export type ReportsApi = { [name: `${string}Stream`]: StreamCall } & { [name: string]: ReportCall };

/**
 * An organization's view of the engine. Every method of `reports` and `resources` is generated from
 * the registry and runs as that organization: another organization's objects are refused.
 */
export class OrgScope {
  readonly reports: ReportsApi = {};
  readonly resources: Record<string, (input?: EndpointInput) => Promise<JsonObject>> = {};

  constructor(
    private readonly core: EngineCore,
    readonly id: string,
    private readonly cursors: CursorCodec,
  ) {
    for (const endpoint of endpoints) {
      const target = endpoint.group === 'reports' ? (this.reports as Record<string, unknown>) : (this.resources as Record<string, unknown>);
      if (endpoint.stream) {
        target[endpoint.name] = (body?: object, options: ReportOptions = {}) => this.events(endpoint.path, endpoint.method, body, options);
      } else if (endpoint.group === 'reports') {
        target[endpoint.name] = async (body?: object, options: ReportOptions = {}) => {
          const format = formatOf(options.format);
          return pageAs(await this.invoke(endpoint.method, endpoint.path, { body }), format, endpoint.path, { duckdb: this.core.pool });
        };
      } else {
        target[endpoint.name] = async (input?: EndpointInput) => parseJson(await this.invoke(endpoint.method, endpoint.path, input ?? {}));
      }
    }
  }

  context(signal?: AbortSignal): CallContext {
    if (!this.core.catalog.hasOrganization(this.id)) throw new NotFoundError(`organization ${this.id} not found`);
    return { organizationId: this.id, core: this.core, now: this.core.clock(), cursors: this.cursors, signal };
  }

  /** Calls an operation by method and path, exactly as the REST service would, and gives its answer as JSON text or SSE events. */
  async call(method: string, path: string, input: EndpointInput = {}, signal?: AbortSignal): Promise<JsonResult> {
    return encodeJson(await this.invoke(method, path, input, signal));
  }

  /** Calls an operation by method and path; a report's answer comes as a rows result, not yet encoded (see src/formats). */
  async invoke(method: string, path: string, input: EndpointInput = {}, signal?: AbortSignal): Promise<EndpointResult> {
    const match = matchEndpoint(method, path);
    if (!match) throw new NotFoundError(`no operation ${method.toUpperCase()} ${path}`);
    return match.endpoint.handle({ ...input, params: { ...match.params, ...input.params } }, this.context(signal));
  }

  /**
   * Calls a report by method and path for a table format (see src/formats): its rows, not yet encoded.
   * An operation that answers no rows is refused before it runs, so nothing changes.
   */
  async invokeRows(method: string, path: string, input: EndpointInput, format: FormatName, signal?: AbortSignal): Promise<RowsResult> {
    const match = matchEndpoint(method, path);
    if (match && match.endpoint.group !== 'reports') throw jsonOnly(path, format);
    return rowsFor(await this.invoke(method, path, input, signal), format, path);
  }

  private async *events(path: string, method: string, body: object | undefined, options: ReportOptions) {
    const format = formatOf(options.format);
    yield* streamAs(await this.invoke(method, path, { body }), format, path, { duckdb: this.core.pool });
  }
}
