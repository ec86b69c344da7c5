import fc from 'fast-check';
import { parseArgs } from 'node:util';
import { openEngine } from '../../src/open-engine.ts';
import { createServer } from '../../src/http/create-server.ts';
import { ensureSample } from '../../src/generate/sample.ts';
import { endpoints } from '../../src/registry.ts';
import { ApiKeys } from '../../src/state/api-keys.ts';
import { fuzzRequests, send } from './fuzz-core.ts';
import { orgHints } from './hints.ts';

/** `npm run fuzz -- --requests N [--concurrency C] [--data DIR]`: a long fuzzing campaign against a real server. */
const { values } = parseArgs({
  options: {
    requests: { type: 'string' },
    concurrency: { type: 'string' },
    data: { type: 'string' },
    seed: { type: 'string' },
  },
});
const total = Number(values.requests ?? 2000);
const concurrency = Number(values.concurrency ?? 8);
const engine = await openEngine({ data: values.data ?? (await ensureSample()) });
const org = (await engine.listOrganizations())[0]!;
const app = await createServer({ engine, rateLimit: false });
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const key = (
  await ApiKeys.of(engine.core.state).create({
    organizationId: org.id,
    name: 'fuzz campaign',
    expiresOn: '2099-01-01',
    now: new Date(),
  })
).key;
const requests = fc.sample(fuzzRequests(endpoints, await orgHints(engine, org.id)), {
  numRuns: total,
  seed: Number(values.seed ?? Date.now() % 2 ** 31),
});
const byStatus = new Map<string, number>();
/** Statuses by format asked and by answer extension asked, so a run shows each was exercised and answered. */
const byAsked = new Map<string, Map<number, number>>();
const tally = (label: string, status: number) => {
  const held = byAsked.get(label) ?? byAsked.set(label, new Map()).get(label)!;
  held.set(status, (held.get(status) ?? 0) + 1);
};
const problems: string[] = [];
let next = 0;
let done = 0;
const started = Date.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < requests.length) {
      const r = requests[next++]!;
      const o = await send(base, key, r);
      const label = `${o.status} (${r.kind})`;
      byStatus.set(label, (byStatus.get(label) ?? 0) + 1);
      tally(`format ${r.format ?? 'json'}`, o.status);
      for (const e of r.extensions ?? []) tally(`extension ${e}`, o.status);
      if (o.problem)
        problems.push(`${r.endpoint.method} ${r.path}${r.query}: ${o.problem}\n  body: ${r.body?.slice(0, 300)}`);
      if (++done % 500 === 0) process.stderr.write(`fuzz: ${done}/${total} requests\n`);
    }
  }),
);
await app.close();
engine.close();
const seconds = (Date.now() - started) / 1000;
process.stdout.write(`fuzz: ${total} requests to ${endpoints.length} operations in ${seconds.toFixed(1)} s\n`);
for (const [label, n] of [...byStatus].sort()) process.stdout.write(`  ${label}: ${n}\n`);
for (const [label, statuses] of [...byAsked].sort())
  process.stdout.write(
    `  ${label}: ${[...statuses]
      .sort((a, b) => a[0] - b[0])
      .map(([st, n]) => `${n} × ${st}`)
      .join(', ')}\n`,
  );
process.stdout.write(`problems: ${problems.length}\n${problems.slice(0, 20).join('\n')}\n`);
process.exitCode = problems.length > 0 ? 1 : 0;
