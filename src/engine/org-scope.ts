import { NotFoundError, ServerBusyError } from '../errors.ts';
import type { CursorCodec } from '../query/cursor.ts';
import type { CallContext, EndpointInput, EndpointResult } from '../reports/endpoint.ts';
import { encodeJson, pageObject, streamObjects, type JsonResult } from '../formats/json.ts';
import type { Routes } from '../reports/routes.ts';
import { withBudget } from './budget.ts';
import type { EngineCore } from './core.ts';
import { requireTables } from './operation-tables.ts';

export type JsonObject = Record<string, unknown>;
/** `signal` stops the call: its statement is interrupted and the call rejects with the signal's reason. */
export interface CallOptions {
  readonly signal?: AbortSignal;
}
export type ReportCall = (body?: object, options?: CallOptions) => Promise<JsonObject>;
export type StreamCall = (body?: object, options?: CallOptions) => AsyncIterable<{ event: string; data: JsonObject }>;
/** `reports.<name>(body)` answers `{info, data}`; `reports.<name>Stream(body)` yields `{event, data}`. */
export type ReportsApi = { [name: `${string}Stream`]: StreamCall } & { [name: string]: ReportCall };

/**
 * An organization's view of the engine. Every method of `reports` and `resources` is generated from
 * the registry and runs as that organization: another organization's objects are refused. Each call
 * (not a stream) runs within the engine's time budget.
 */
export class OrgScope {
  readonly reports: ReportsApi = {};
  readonly resources: Record<string, (input?: EndpointInput, options?: CallOptions) => Promise<JsonObject>> = {};

  constructor(
    private readonly core: EngineCore,
    private readonly routes: Routes,
    readonly id: string,
    private readonly cursors: CursorCodec,
  ) {
    const budget = (options: CallOptions | undefined, fn: (signal: AbortSignal) => Promise<JsonObject>) => withBudget(core.limits.timeBudgetMs, options?.signal, fn);
    for (const endpoint of routes.endpoints) {
      const target = endpoint.group === 'reports' ? (this.reports as Record<string, unknown>) : (this.resources as Record<string, unknown>);
      if (endpoint.stream) {
        target[endpoint.name] = (body?: object, options?: CallOptions) => this.events(endpoint.path, endpoint.method, { body }, options?.signal);
      } else if (endpoint.group === 'reports') {
        target[endpoint.name] = (body?: object, options?: CallOptions) =>
          budget(options, async (signal) => {
            const result = await this.invoke(endpoint.method, endpoint.path, { body }, signal);
            return result.kind === 'rows' ? pageObject(result) : parseJson(result);
          });
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

  /** A stream holds one of the engine's stream slots from its first pull until it ends or the caller stops. */
  private async *events(path: string, method: string, input: EndpointInput, signal?: AbortSignal): AsyncGenerator<{ event: string; data: JsonObject }> {
    const release = this.core.streams.take();
    if (!release) throw new ServerBusyError(this.core.streams.max);
    try {
      const result = await this.invoke(method, path, input, signal);
      if (result.kind === 'rows') return yield* streamObjects(result);
      if (result.kind !== 'stream') throw new Error(`${path} is not a stream`);
      for await (const e of result.events) yield { event: e.event, data: JSON.parse(e.data) as JsonObject };
    } finally {
      release();
    }
  }
}

function parseJson(result: EndpointResult): JsonObject {
  if (result.kind !== 'json') throw new Error('expected a JSON result');
  return JSON.parse(result.json) as JsonObject;
}
