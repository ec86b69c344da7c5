import type { Engine } from '../library/engine.ts';
import type { SqlValue } from '../query/sql.ts';
import type { CallGate } from './call-gate.ts';
import type { ReadRow } from './empty-reason.ts';
import type { ToolSession } from './tool-call.ts';

/** Reads one row from the engine's DuckDB with bound parameters. */
export const engineReader =
  (engine: Engine): ReadRow =>
  (text, params) =>
    engine.core.pool.use(
      async (conn) =>
        (await conn.runAndReadAll(text, params as SqlValue[] as never)).getRowObjectsJS()[0] as
          | Record<string, unknown>
          | undefined,
    );

/** A tool session of one organization of an opened engine. */
export const engineSession = (
  engine: Engine,
  organizationId: string,
  gate: CallGate,
  allowWrites: boolean,
): ToolSession => ({
  scope: engine.org(organizationId),
  gate,
  allowWrites,
  read: engineReader(engine),
});
