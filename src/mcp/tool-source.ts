import { readFile } from 'node:fs/promises';
import type { McpTool, ToolCatalog } from './tool-catalog.ts';

/** A tool as `tools/list` shows it. */
export interface ListedTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown> & { type: 'object' };
  readonly write: boolean;
}

/** Where a server finds its tools: the listing, and each tool to call. */
export interface ToolSource {
  listing(): Promise<readonly ListedTool[]>;
  tool(name: string): Promise<McpTool | undefined>;
}

export const listedOf = (catalog: ToolCatalog): ListedTool[] =>
  [...catalog.tools.values()].map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema, write: t.write }));

/** The tools of a loaded catalog. */
export const catalogSource = (catalog: ToolCatalog): ToolSource => ({
  listing: async () => listedOf(catalog),
  tool: async (name) => catalog.tools.get(name),
});

/** The listing rendered from the registry at build time (`npm run mcp:manifest`; a test keeps it equal to the registry's). */
export const manifestUrl = new URL('./tool-manifest.json', import.meta.url);

/**
 * The tools of a local server that starts fast: the listing read from the manifest (the registry's
 * tools rendered to JSON), while the registry itself loads for the first call. Without a manifest
 * (a build that did not copy it), the listing waits for the registry.
 */
export function manifestSource(loadCatalog: () => Promise<ToolCatalog>): ToolSource {
  let catalog: Promise<ToolCatalog> | undefined;
  const loaded = () => (catalog ??= loadCatalog());
  return {
    async listing() {
      const text = await readFile(manifestUrl, 'utf8').catch(() => undefined);
      return text === undefined ? listedOf(await loaded()) : (JSON.parse(text) as { tools: ListedTool[] }).tools;
    },
    tool: async (name) => (await loaded()).tools.get(name),
  };
}
