// Runs `aea mcp` from source through tsx without the rest of the CLI: what `npx aea mcp` in a clone costs once the command map loads commands lazily.
import { register } from 'tsx/esm/api';

register();
const { processIo } = await import('../src/cli/io.ts');
const { mcp } = await import('../src/cli/commands/mcp.ts');
process.exitCode = await mcp.run(process.argv.slice(2), processIo);
