import { NotFoundError } from '../errors.ts';
import type { CursorCodec } from '../query/cursor.ts';
import type { CallContext, EndpointInput, EndpointResult } from '../reports/endpoint.ts';
import { pageObject, streamObjects } from '../formats/json.ts';
import { endpoints, matchEndpoint } from '../reports/registry.ts';
import type { EngineCore } from './engine.ts';
import { requireTables } from './operation-tables.ts';

export type JsonObject = Record<string, unknown>;
export type ReportCall = (body?: object) => Promise<JsonObject>;
export type StreamCall = (body?: object) => AsyncIterable<{ event: string; data: JsonObject }>;
/** `reports.<name>(body)` answers `{info, data}`; `reports.<name>Stream(body)` yields `{event, data}`. */
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
        target[endpoint.name] = (body?: object) => this.events(endpoint.path, endpoint.method, { body });
      } else if (endpoint.group === 'reports') {
        target[endpoint.name] = async (body?: object) => {
          const result = await this.call(endpoint.method, endpoint.path, { body });
          return result.kind === 'rows' ? pageObject(result) : parseJson(result);
        };
      } else {
        target[endpoint.name] = async (input?: EndpointInput) => parseJson(await this.call(endpoint.method, endpoint.path, input ?? {}));
      }
    }
  }

  context(signal?: AbortSignal): CallContext {
    if (!this.core.catalog.hasOrganization(this.id)) throw new NotFoundError(`organization ${this.id} not found`);
    return { organizationId: this.id, core: this.core, now: this.core.clock(), cursors: this.cursors, signal };
  }

  /** Calls an operation by method and path, exactly as the REST service would. */
  async call(method: string, path: string, input: EndpointInput = {}, signal?: AbortSignal): Promise<EndpointResult> {
    const match = matchEndpoint(method, path);
    if (!match) throw new NotFoundError(`no operation ${method.toUpperCase()} ${path}`);
    requireTables(match.endpoint.path, this.core.missingTables);
    return match.endpoint.handle({ ...input, params: { ...match.params, ...input.params } }, this.context(signal));
  }

  private async *events(path: string, method: string, input: EndpointInput): AsyncGenerator<{ event: string; data: JsonObject }> {
    const result = await this.call(method, path, input);
    if (result.kind === 'rows') return yield* streamObjects(result);
    if (result.kind !== 'stream') throw new Error(`${path} is not a stream`);
    for await (const e of result.events) yield { event: e.event, data: JSON.parse(e.data) as JsonObject };
  }
}

function parseJson(result: EndpointResult): JsonObject {
  if (result.kind !== 'json') throw new Error('expected a JSON result');
  return JSON.parse(result.json) as JsonObject;
}
