import type { OrgScope } from '../library/org-scope.ts';
import { metrics } from '../model/metrics.ts';
import type { ListedTool, ToolSource } from './tool-source.ts';

/** An MCP resource: a fixed URI and how to read it as JSON. */
export interface McpResource {
  readonly uri: string;
  readonly name: string;
  readonly description: string;
  read(scope: () => Promise<OrgScope>): Promise<unknown>;
}

/** The enum values under a JSON schema node, looking through arrays, anyOf and oneOf (nullable and optional arguments). */
function enumUnder(node: unknown): string[] {
  if (node === null || typeof node !== 'object') return [];
  const n = node as Record<string, unknown>;
  if (Array.isArray(n.enum)) return n.enum.filter((v): v is string => typeof v === 'string');
  return [n.items, ...((n.anyOf as unknown[]) ?? []), ...((n.oneOf as unknown[]) ?? [])].flatMap(enumUnder);
}

/** Each report tool's dimensions (what its rows can be grouped by), metrics and intervals, read from its input schema. */
export function dimensionsOf(
  tools: readonly ListedTool[],
): Record<string, { group_by: string[]; metrics: string[]; intervals: string[] }> {
  const out: Record<string, { group_by: string[]; metrics: string[]; intervals: string[] }> = {};
  for (const tool of tools) {
    const p = tool.inputSchema.properties as Record<string, unknown>;
    if (!('group_by' in p) && !('dimensions' in p)) continue;
    out[tool.name] = {
      group_by: [...new Set([...enumUnder(p.group_by), ...enumUnder(p.dimensions)])],
      metrics: [...new Set(enumUnder(p.metrics))],
      intervals: [...new Set([...enumUnder(p.interval), ...enumUnder(p.date_interval)])],
    };
  }
  return out;
}

/** Categories the categories resource details at most; a larger organization's rest are counted, and listed by the `categories` tool. */
export const maxCategoriesDetailed = 100;

export function mcpResources(tools: ToolSource): McpResource[] {
  return [
    {
      uri: 'aea://model/metrics',
      name: 'metrics',
      description:
        'Every metric’s definition: the reports it appears in, numerator, denominator, scope and unit (src/model/metrics.ts; docs/data-model.md)',
      read: async () => ({ metrics }),
    },
    {
      uri: 'aea://model/dimensions',
      name: 'dimensions',
      description:
        'Per report tool: the dimensions its rows can be grouped by, the metrics it can be asked for and its time intervals',
      read: async () => ({ reports: dimensionsOf(await tools.listing()) }),
    },
    {
      uri: 'aea://org/categories',
      name: 'categories',
      description:
        'The organization’s categories (the category_id every Insights report takes), with their brands, topics and tags',
      read: async (scope) => {
        const org = await scope();
        const all = (await org.resources.categories!()) as unknown as { id: string; name: string }[];
        const categories = all.slice(0, maxCategoriesDetailed);
        return {
          ...(all.length > categories.length
            ? { not_shown: all.length - categories.length, see: 'the categories tool lists every category' }
            : {}),
          categories: await Promise.all(
            categories.map(async (c) => ({
              ...c,
              assets: await org.resources.categoryAssets!({ params: { category_id: c.id } }),
              topics: await org.resources.categoryTopics!({ params: { category_id: c.id } }),
              tags: await org.resources.categoryTags!({ params: { category_id: c.id } }),
            })),
          ),
        };
      },
    },
  ];
}
