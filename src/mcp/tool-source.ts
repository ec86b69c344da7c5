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
  [...catalog.tools.values()].map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema,
    write: t.write,
  }));

/** The tools of a loaded catalog. */
export const catalogSource = (catalog: ToolCatalog): ToolSource => ({
  listing: async () => listedOf(catalog),
  tool: async (name) => catalog.tools.get(name),
});

/** The listing rendered from the registry at build time (`npm run mcp:manifest`; a test keeps it equal to the registry's). */
export const manifestUrl = new URL('./tool-manifest.json', import.meta.url);

/** The manifest, imported so that the build copies it into dist/ beside this module. */
const readManifest = async (): Promise<{ tools: ListedTool[] }> =>
  (await import('./tool-manifest.json', { with: { type: 'json' } })).default as { tools: ListedTool[] };

/**
 * The tools of a local server that starts fast: the listing read from the manifest (the registry's
 * tools rendered to JSON), while the registry itself loads for the first call. Without a manifest,
 * the listing waits for the registry.
 */
export function manifestSource(loadCatalog: () => Promise<ToolCatalog>): ToolSource {
  let catalog: Promise<ToolCatalog> | undefined;
  const loaded = () => (catalog ??= loadCatalog());
  return {
    async listing() {
      const manifest = await readManifest().catch(() => undefined);
      return manifest ? manifest.tools : listedOf(await loaded());
    },
    tool: async (name) => (await loaded()).tools.get(name),
  };
}
