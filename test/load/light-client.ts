import { spawn } from 'node:child_process';

/**
 * A light client in a process of its own: a GET every `everyMs` for `seconds`. In the harness's own process
 * its latency would include the harness's event loop, busy reading the heavy clients' bytes; a user beside
 * them is another machine.
 */
const script = `
const [url, key, seconds, everyMs] = process.argv.slice(1);
const latencies = [], status = {};
const until = Date.now() + Number(seconds) * 1000;
while (Date.now() < until) {
  const t = performance.now();
  const r = await fetch(url, { headers: { 'x-api-key': key } });
  await r.arrayBuffer();
  latencies.push(performance.now() - t);
  status[r.status] = (status[r.status] ?? 0) + 1;
  await new Promise((res) => setTimeout(res, Number(everyMs)));
}
process.stdout.write(JSON.stringify({ latencies, status }));
`;

export type LightRun = {
  requests: number;
  status: Record<string, number>;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
};

export async function lightClient(url: string, key: string, seconds: number, everyMs = 50): Promise<LightRun> {
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', script, url, key, String(seconds), String(everyMs)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`light client exited ${code}`);
  const { latencies, status } = JSON.parse(out) as { latencies: number[]; status: Record<string, number> };
  latencies.sort((a, b) => a - b);
  const q = (p: number) => +latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!.toFixed(1);
  return { requests: latencies.length, status, p50_ms: q(0.5), p99_ms: q(0.99), max_ms: q(1) };
}
