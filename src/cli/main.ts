import { DatasetError, EngineError } from '../errors.ts';
import { UsageError } from './args.ts';
import { commands } from './commands/index.ts';

const usage = `aea: answer-engine-analytics

Usage: aea <command> [options]

Commands:
${Object.entries(commands)
  .map(([name, c]) => `  ${name.padEnd(12)} ${c.summary}`)
  .join('\n')}

Run \`aea <command> --help\` for a command's options.`;

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h') {
    process.stdout.write(usage + '\n');
    return name ? 0 : 1;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`aea: unknown command "${name}"\n\n${usage}\n`);
    return 1;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${command.usage}\n`);
    return 0;
  }
  return command.run(rest);
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError || error instanceof DatasetError) {
    process.stderr.write(`aea: ${error.message}\n`);
    process.exitCode = 1;
  } else if (error instanceof EngineError) {
    process.stderr.write(`aea: ${error.message}\n`);
    process.exitCode = error.status === 422 ? 2 : error.status === 403 || error.status === 404 ? 3 : 1;
  } else {
    throw error;
  }
}
