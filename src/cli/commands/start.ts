import { openEngine } from '../../open-engine.ts';
import { ensureSample } from '../../generate/sample.ts';
import { stderrProgress } from '../../generate/progress.ts';
import { createServer } from '../../http/create-server.ts';
import { ApiKeys } from '../../state/api-keys.ts';
import { defaultStatePath } from '../../state/default-path.ts';
import { number, parse } from '../args.ts';
import type { Command } from './command.ts';

const demoName = 'demo key (npm start)';

export const start: Command = {
  usage: `aea start [--port P]   builds data/sample if needed, then serves it on 127.0.0.1 (default port 8787)`,
  async run(argv, io) {
    const { values } = parse(argv, { port: { type: 'string' } });
    const data = await ensureSample(stderrProgress('building data/sample'));
    const engine = await openEngine({ data, state: defaultStatePath(data) });
    const [org] = await engine.listOrganizations();
    const store = ApiKeys.of(engine.core.state);
    const now = engine.core.clock();
    for (const k of await store.list()) if (k.name === demoName && !k.revoked_at) await store.revoke(k.id, now);
    const expires = new Date(now.getTime() + 30 * 86_400_000).toISOString().slice(0, 10);
    const key = await store.create({ organizationId: org!.id, name: demoName, expiresOn: expires, now });
    const app = await createServer({ engine, logger: false });
    const address = await app.listen({ port: number(values, 'port', 8787), host: '127.0.0.1' });
    const category = org!.categories[0]!;
    const body = JSON.stringify({
      category_id: category.id,
      start_date: '2026-10-01',
      end_date: '2026-10-31',
      scope: 'all',
      limit: 5,
    });
    io.out(
      [
        `Answer Engine Analytics API on ${address} (docs: ${address}/docs)`,
        `Organization: ${org!.name} (${org!.id}); category "${category.name}" ${category.id}`,
        `Demo API key (expires ${expires}): ${key.key}`,
        '',
        `curl -s -X POST ${address}/v2/reports/visibility -H 'X-API-Key: ${key.key}' -H 'Content-Type: application/json' -d '${body}'`,
        `curl -N -X POST ${address}/v2/reports/visibility/stream -H 'X-API-Key: ${key.key}' -H 'Content-Type: application/json' -d '${body}'`,
        '',
        'Ctrl-C stops the server.',
        '',
      ].join('\n'),
    );
    await io.stopped();
    await app.close();
    await engine.close();
    return 0;
  },
};
