import type { Engine } from '../../library/engine.ts';
import { parse, required, UsageError } from '../args.ts';
import type { Command } from './command.ts';
import { backendOf, backendParse, backendUsage } from '../backend-option.ts';

export const mcp: Command = {
  usage: `aea mcp --data DIR (--org ORG_ID | --key KEY) [--state FILE] [--allow-writes]
        [--backend duckdb|chdb|clickhouse [--clickhouse-url URL]]

  Speaks the Model Context Protocol on standard input and output (docs/mcp.md): one tool per report
  and read resource of the API, the data model and the organization's categories as resources, and
  prompts for common questions. Logs go to standard error.

  --org ORG_ID     answer as this organization
  --key KEY        answer as the organization of this API key of the state store (aea keys create)
  --state FILE     the state store (default: <DIR>.state.duckdb beside the dataset); when aea serve holds
                   it, answers come from a read-only snapshot of it and writes are refused
  --allow-writes   also offer the tools that change data (prompts, knowledge-base documents, agents);
                   they honour dry_run where the operation takes it
${backendUsage}`,
  async run(argv, io) {
    const { values } = parse(argv, {
      data: { type: 'string' },
      org: { type: 'string' },
      key: { type: 'string' },
      state: { type: 'string' },
      'allow-writes': { type: 'boolean' },
      ...backendParse,
    });
    const data = required(values, 'data');
    const org = typeof values.org === 'string' ? values.org : undefined;
    const key = typeof values.key === 'string' ? values.key : undefined;
    if ((org === undefined) === (key === undefined)) throw new UsageError('give one of --org ORG_ID or --key KEY');
    const backend = backendOf(values);
    // The engine and the registry load after the client has its tool list (src/mcp/stdio-server.ts): imported here, not above.
    const open = async (): Promise<{ engine: Engine; organizationId: string }> => {
      const [{ openEngine }, { ApiKeys }, { defaultStatePath }, { AuthError, NotFoundError }] = await Promise.all([
        import('../../open-engine.ts'),
        import('../../state/api-keys.ts'),
        import('../../state/default-path.ts'),
        import('../../errors.ts'),
      ]);
      const engine = await openEngine({
        data,
        state: typeof values.state === 'string' ? values.state : defaultStatePath(data),
        stateWhenLocked: 'snapshot',
        ...backend,
      });
      try {
        const organizationId =
          org ?? (await ApiKeys.of(engine.core.state).verify(key!, engine.core.clock()))?.organizationId;
        if (organizationId === undefined) throw new AuthError('Invalid, expired or revoked API key');
        if (!engine.core.catalog.hasOrganization(organizationId))
          throw new NotFoundError(`organization ${organizationId} not found`);
        if (engine.core.state.readOnly)
          io.err(
            `aea mcp: ${engine.core.state.file} is held by another process: answering from a read-only snapshot; writes are refused\n`,
          );
        return { engine, organizationId };
      } catch (error) {
        await engine.close();
        io.err(`aea mcp: ${(error as Error).message}\n`);
        throw error;
      }
    };
    const loadCatalog = async () => {
      const [{ endpoints }, { ToolCatalog }] = await Promise.all([
        import('../../registry.ts'),
        import('../../mcp/tool-catalog.ts'),
      ]);
      return new ToolCatalog(endpoints);
    };
    const { serveStdio } = await import('../../mcp/stdio-server.ts');
    const { opened } = await serveStdio(
      { open, loadCatalog, allowWrites: values['allow-writes'] === true, clock: () => new Date() },
      io.stopped(),
    );
    const engine = await opened;
    if (engine) {
      await engine.runsSettled();
      await engine.close();
    }
    return 0;
  },
};
