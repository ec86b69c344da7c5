import { Engine, type EngineOptions } from './library/engine.ts';
import { endpoints, matchEndpoint } from './registry.ts';
import { AgentRunner } from './resources/agents/runner.ts';
import { sweepStaleTemp } from './engine/temp-paths.ts';

/**
 * Opens a dataset as the library, the REST service and the CLI use it: every operation of the
 * registry, and the agent runner executing queued runs in the background.
 */
export const openEngine = (options: EngineOptions): Promise<Engine> => {
  // A process killed outright leaves its temporary folders; the next one to open removes them.
  sweepStaleTemp();
  return Engine.open(options, {
    endpoints,
    background: (core, call) => new AgentRunner(core.state, core.clock, call, matchEndpoint),
  });
};
