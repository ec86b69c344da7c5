import { openEngine } from '../../open-engine.ts';
import { sampleDir } from '../../generate/sample.ts';
import { UnavailableError } from '../../errors.ts';
import { ApiKeys } from '../../state/api-keys.ts';
import { defaultStatePath } from '../../state/default-path.ts';
import { parse, required, UsageError } from '../args.ts';
import type { Command } from './command.ts';

export const keys: Command = {
  usage: `aea keys create --org ID --name NAME --expires YYYY-MM-DD [--data DIR] [--state FILE]
aea keys list [--org ID] [--data DIR] [--state FILE]
aea keys revoke KEY_ID [--data DIR] [--state FILE]

  --data DIR     the dataset (default data/sample); organizations are checked against it
  --state FILE   the state store (default: <DIR>.state.duckdb). \`list\` works beside a running \`aea serve\` (from a
                 read-only snapshot); \`create\` and \`revoke\` need it stopped (one process writes a state file, and a
                 running server holds its keys in memory) and say so at once.
The key is printed once; only its SHA-256 hash is stored.`,
  async run(argv, io) {
    const { values, positionals } = parse(argv, {
      org: { type: 'string' },
      name: { type: 'string' },
      expires: { type: 'string' },
      data: { type: 'string' },
      state: { type: 'string' },
    });
    const [action, id] = positionals;
    const data = typeof values.data === 'string' ? values.data : sampleDir;
    const engine = await openEngine({
      data,
      state: typeof values.state === 'string' ? values.state : defaultStatePath(data),
      stateWhenLocked: 'snapshot',
      // Keys read no report: no rollup is read back from the store or built.
      rollups: false,
    });
    try {
      if (engine.core.state.readOnly && (action === 'create' || action === 'revoke')) {
        throw new UnavailableError(
          `the state store ${engine.core.state.file} is held by another process (such as aea serve): stop it to ${action} keys (a running server holds its keys in memory); \`aea keys list\` works beside it`,
        );
      }
      const store = ApiKeys.of(engine.core.state);
      const now = engine.core.clock();
      if (action === 'create') {
        const org = required(values, 'org');
        if (!engine.core.catalog.hasOrganization(org))
          throw new UsageError(`no organization ${org} in ${data} (see \`aea orgs --data ${data}\`)`);
        const created = await store.create({
          organizationId: org,
          name: required(values, 'name'),
          expiresOn: required(values, 'expires'),
          now,
        });
        io.out(`${JSON.stringify(created, null, 2)}\nStore the key now: it cannot be shown again.\n`);
      } else if (action === 'list') {
        io.out(
          JSON.stringify(await store.list(typeof values.org === 'string' ? values.org : undefined), null, 2) + '\n',
        );
      } else if (action === 'revoke') {
        if (!id) throw new UsageError('aea keys revoke KEY_ID');
        io.out(JSON.stringify(await store.revoke(id, now), null, 2) + '\n');
      } else {
        throw new UsageError('aea keys create|list|revoke (see aea keys --help)');
      }
    } finally {
      await engine.close();
    }
    return 0;
  },
};
