import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sampleDir } from '../src/generate/sample.ts';
import { openEngine } from '../src/open-engine.ts';

/**
 * Cold start of `aea mcp`: from spawning the process to the client holding its tool list, over the
 * sample, `runs` times each: the CLI and the mcp command without the rest of the CLI, from source (tsx)
 * and, when `npm run build` has made dist/, built (bench/mcp-command-*entry.mjs).
 *   node --import tsx bench/mcp-cold-start.ts [runs]
 */
const runs = Number(process.argv[2] ?? 5);
const engine = await openEngine({ data: sampleDir });
const org = (await engine.listOrganizations())[0]!.id;
await engine.close();

const entries: [string, string][] = [
  ['aea mcp from source (tsx, the whole CLI)', fileURLToPath(new URL('../src/cli/aea.mjs', import.meta.url))],
  [
    'the mcp command alone, from source (tsx)',
    fileURLToPath(new URL('./mcp-command-source-entry.mjs', import.meta.url)),
  ],
];
const built = fileURLToPath(new URL('../dist/aea/main.js', import.meta.url));
if (existsSync(built)) {
  entries.push(['aea mcp built (dist, the whole CLI)', built]);
  entries.push([
    'the mcp command alone, built (dist)',
    fileURLToPath(new URL('./mcp-command-entry.mjs', import.meta.url)),
  ]);
}

/** CPU seconds a process has used (user + system), from /proc: what its start costs whatever else the machine runs. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

async function once(entry: string): Promise<{ tools: number; ms: number; cpu: number }> {
  const started = performance.now();
  const client = new Client({ name: 'cold-start', version: '1' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [entry, 'mcp', '--data', sampleDir, '--org', org],
    stderr: 'ignore',
  });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const ms = performance.now() - started;
  const cpu = cpuMs(transport.pid!);
  await client.close();
  return { tools: tools.length, ms, cpu };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`uptime: ${execFileSync('uptime').toString().trim()}`);
for (const [name, entry] of entries) {
  const times: number[] = [];
  const cpus: number[] = [];
  let tools = 0;
  await once(entry); // warms the OS file cache and tsx's transform cache, as a second start would find them
  for (let i = 0; i < runs; i++) {
    const r = await once(entry);
    times.push(r.ms);
    cpus.push(r.cpu);
    tools = r.tools;
  }
  console.log(
    `${name}: ${tools} tools; to tool list median ${median(times).toFixed(0)} ms, min ${Math.min(...times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms over ${runs} runs; CPU of the server process by then median ${median(cpus).toFixed(0)} ms`,
  );
}
console.log(`uptime: ${execFileSync('uptime').toString().trim()}`);
