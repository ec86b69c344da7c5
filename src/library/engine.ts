import { randomBytes } from 'node:crypto';
import { CursorCodec } from '../query/cursor.ts';
import { OrgScope } from './org-scope.ts';
import { listOrganizations, type OrganizationListing } from '../engine/organizations.ts';
import type { OrgSummary } from '../engine/tenant-catalog.ts';
import { noBackgroundWork, type BackgroundWorker, type EngineCore } from '../engine/core.ts';
import type { Endpoint, EndpointInput, EndpointResult } from '../reports/endpoint.ts';
import { Routes } from '../reports/routes.ts';
import type { EngineOptions } from '../engine/engine-options.ts';
import { openCore } from '../engine/open-core.ts';
import { rollupCatalog } from '../reports/rollup-catalog.ts';

export type { EngineCore, EngineStats, BackgroundWorker } from '../engine/core.ts';

export type { EngineOptions, TableInput } from '../engine/engine-options.ts';

/** Calls an operation as an organization, exactly as `engine.org(id).call` does. */
export type EngineCall = (
  organizationId: string,
  method: string,
  path: string,
  input: EndpointInput,
) => Promise<EndpointResult>;

/**
 * What the host that opens the engine brings: the operations it serves (the registry) and its
 * background work (the agent runner), so the core imports neither.
 */
export interface EngineHost {
  readonly endpoints: readonly Endpoint[];
  readonly background?: (core: Omit<EngineCore, 'runner'>, call: EngineCall) => BackgroundWorker;
}

/** The opened dataset. Hand out org-scoped handles with `engine.org(id)`; close it when done. */
export class Engine {
  private readonly cursors: CursorCodec;
  private readonly scopes = new Map<string, OrgScope>();

  private constructor(
    readonly core: EngineCore,
    private readonly routes: Routes,
    cursorSecret: string,
  ) {
    this.cursors = new CursorCodec(cursorSecret);
  }

  static async open(options: EngineOptions, host: EngineHost): Promise<Engine> {
    const opened = await openCore(options, rollupCatalog);
    const call: EngineCall = (organizationId, method, path, input) =>
      engine.org(organizationId).call(method, path, input);
    const runner = host.background?.(opened, call) ?? noBackgroundWork;
    const core: EngineCore = { ...opened, runner };
    const engine: Engine = new Engine(
      core,
      new Routes(host.endpoints),
      options.cursorSecret ?? (await core.state.meta('cursor_secret')) ?? randomBytes(32).toString('base64url'),
    );
    // Stored rollups are read in the background: requests read the facts until theirs is in. Read in
    // place, they answer the first request.
    if (options.rollups === 'stored') {
      const org = options.storedRollupsOf;
      const scopes = org === undefined ? undefined : new Set([org, ...core.catalog.idsOf('category', org)]);
      await core.rollups.attachStored(rollupCatalog, scopes);
    } else if (options.restoreRollups !== false) core.rollups.restore(rollupCatalog).catch(() => undefined);
    try {
      if (!core.state.readOnly) await runner.start();
    } catch (error) {
      core.pool.close();
      throw error;
    }
    return engine;
  }

  /**
   * A handle that runs every report and resource as this organization. The handle of an organization of
   * the dataset is built once and kept (at most one per organization of the dataset), so a request does
   * not rebuild a method for every operation of the registry; an unknown id gets a fresh handle, whose
   * calls are refused, and is not kept.
   */
  org(organizationId: string): OrgScope {
    const kept = this.scopes.get(organizationId);
    if (kept) return kept;
    const scope = new OrgScope(this.core, this.routes, organizationId, this.cursors);
    if (this.core.catalog.hasOrganization(organizationId)) this.scopes.set(organizationId, scope);
    return scope;
  }

  get organizations(): readonly OrgSummary[] {
    return this.core.catalog.organizations;
  }

  listOrganizations(): Promise<OrganizationListing[]> {
    return this.core.pool.use(listOrganizations);
  }

  /** Resolves when every queued agent run has finished. */
  runsSettled(): Promise<void> {
    return this.core.runner.idle();
  }

  /**
   * Stops rollup builds and the agent runner, then closes DuckDB. When a run is executing, its current
   * step finishes and the run goes back to the queue (it resumes when the state store is opened again);
   * a rollup build under way is interrupted. Await the promise before exiting. When neither is under
   * way, everything is closed before this returns.
   */
  close(): Promise<void> {
    const waits = [this.core.rollups.close(), this.core.runner.stop(), this.core.knowledge.close()].filter(
      (w) => w !== undefined,
    );
    const backend = this.core.backend.close();
    if (backend) waits.push(backend);
    if (waits.length === 0) return this.core.pool.close() ?? Promise.resolve();
    return Promise.all(waits).then(() => this.core.pool.close());
  }
}
