import type { Endpoint } from '../../reports/endpoint.ts';
import { agentEndpoints } from './agents.ts';
import { runEndpoints } from './runs.ts';

/** Agents (list, get, publish) and their runs (E4 create, get). */
export const allAgentEndpoints: readonly Endpoint[] = [...agentEndpoints, ...runEndpoints];
