import { DatasetError, EngineError } from '../errors.ts';
import { UsageError } from './args.ts';
import { commands } from './commands/index.ts';
import type { CliIo } from './io.ts';

const usage = () => `aea: answer-engine-analytics

Usage: aea <command> [options]

Commands:
${Object.entries(commands)
  .map(([name, c]) => `  ${name.padEnd(12)} ${c.summary}`)
  .join('\n')}

Run \`aea <command> --help\` for a command's options.`;

/** Runs one `aea` command line; the exit code is 0, 2 (422), 3 (403/404) or 1 (anything else). */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  try {
    if (!name || name === '--help' || name === '-h') {
      io.out(usage() + '\n');
      return name ? 0 : 1;
    }
    const entry = Object.hasOwn(commands, name) ? commands[name] : undefined;
    if (!entry) {
      io.err(`aea: unknown command "${name}"\n\n${usage()}\n`);
      return 1;
    }
    const command = await entry.load();
    if (rest.includes('--help') || rest.includes('-h')) {
      io.out(`${command.usage}\n`);
      return 0;
    }
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError || error instanceof DatasetError) {
      io.err(`aea: ${error.message}\n`);
      return 1;
    }
    if (error instanceof EngineError) {
      io.err(`aea: ${error.message}\n`);
      return error.status === 422 ? 2 : error.status === 403 || error.status === 404 ? 3 : 1;
    }
    throw error;
  }
}
