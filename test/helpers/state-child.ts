/**
 * A child process for crash tests: it writes to a state file until the parent kills it, printing one
 * line per acknowledged write. Modes: `patch STATE ORG CATEGORY` applies numbered PATCH batches;
 * `run STATE ORG AGENT INPUTS_JSON` starts an agent run and prints `running` once it executes.
 */
import { openEngine } from '../../src/open-engine.ts';
import { sampleDir } from '../../src/generate/sample.ts';

const [mode, state, org, target, extra] = process.argv.slice(2);
const engine = await openEngine({ data: sampleDir, state: state!, threads: 1, connections: 2 });
const scope = engine.org(org!);
const say = (line: string) => new Promise<void>((resolve) => process.stdout.write(`${line}\n`, () => resolve()));

if (mode === 'patch') {
  const params = { category_id: target! };
  const listed = (await scope.resources.prompts({ params, query: { status: 'active,disabled', limit: '1000' } }))
    .data as { id: string }[];
  await say('ready');
  for (let k = 1; ; k++) {
    const prompts = listed.map((p) => ({
      id: p.id,
      prompt: `batch ${k}`,
      tags: [`crash tag ${k}`],
      topic: { name: `crash topic ${k}` },
    }));
    await scope.resources.updatePrompts({ params, body: { prompts } });
    await say(`committed ${k}`);
  }
} else if (mode === 'run') {
  const params = { agent_id: target! };
  const run = await scope.resources.createAgentRun({ params, body: { inputs: JSON.parse(extra!) as unknown } });
  await say(`created ${String(run.id)}`);
  for (;;) {
    const now = await scope.resources.agentRun({ params: { ...params, run_id: String(run.id) } });
    if (now.status === 'running' && Object.keys(now.outputs as object).length > 0) await say('running');
    else if (now.status !== 'queued' && now.status !== 'running') await say(`finished ${String(now.status)}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
