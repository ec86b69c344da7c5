import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { endpoints } from '../src/registry.ts';
import { ToolCatalog } from '../src/mcp/tool-catalog.ts';
import { listedOf, manifestUrl } from '../src/mcp/tool-source.ts';

/** Renders the registry's MCP tools to src/mcp/tool-manifest.json, which `aea mcp` lists at start (test/mcp.test.ts keeps it current). */
export const manifestText = (): string =>
  `${JSON.stringify({ tools: listedOf(new ToolCatalog(endpoints)) }, null, 1)}\n`;

if (process.argv[1] === fileURLToPath(import.meta.url)) writeFileSync(manifestUrl, manifestText());
