// Runs `aea mcp` from the build without the rest of the CLI: what `aea mcp` costs once the command map loads commands lazily.
import { processIo } from '../dist/cli/io.js';

const { mcp } = await import('../dist/cli/commands/mcp.js');
process.exitCode = await mcp.run(process.argv.slice(2), processIo);
