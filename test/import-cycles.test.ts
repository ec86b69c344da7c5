import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, reachable } from './helpers/import-graph.ts';

const graph = importGraph('src');

/**
 * The folders of src/, lowest first: a module imports from its own layer or the ones below, never above
 * (docs/architecture.md). The engine and the services it opens (the state store, the knowledge-base
 * index, the ClickHouse cluster catalog) are one layer; the library (`Engine`, `engine.org(id)`) is a
 * face like HTTP, the CLI and MCP, and the registry and the package's entry points wire them.
 */
const layers: readonly (readonly string[])[] = [
  ['errors.ts', 'limits.ts', 'model/'],
  ['query/'],
  ['engine/', 'state/', 'knowledge/', 'cluster/'],
  ['formats/'],
  ['reports/'],
  ['resources/'],
  ['generate/', 'import/'],
  ['library/'],
  ['registry.ts', 'open-engine.ts', 'index.ts', 'server.ts', 'http/', 'cli/', 'mcp/'],
];
const layerOf = (file: string) =>
  layers.findIndex((layer) => layer.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p)));

describe('the import graph of src/', () => {
  it('reads the imports it must see', () => {
    expect(graph.get('open-engine.ts')).toEqual([
      'engine/temp-paths.ts',
      'library/engine.ts',
      'registry.ts',
      'resources/agents/runner.ts',
    ]);
    expect(graph.get('reports/endpoint.ts')).toContain('engine/core.ts');
    expect(
      importCycles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', ['c.ts']],
          ['c.ts', ['a.ts']],
          ['d.ts', ['d.ts']],
        ]),
      ),
    ).toEqual([['a.ts', 'b.ts', 'c.ts'], ['d.ts']]);
  });

  it('has no import cycle, type-only imports included', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('places every module in a layer', () => {
    expect([...graph.keys()].filter((f) => layerOf(f) < 0)).toEqual([]);
  });

  it('points one way: no module imports from a layer above its own, type-only imports included', () => {
    const upward = [...graph].flatMap(([from, imports]) =>
      imports.filter((to) => layerOf(to) > layerOf(from)).map((to) => `${from} -> ${to}`),
    );
    expect(upward).toEqual([]);
    expect(layerOf('formats/json.ts')).toBeLessThan(layerOf('reports/endpoint.ts'));
  });

  it('keeps the engine core free of reports, resources and faces: the host hands it the registry', () => {
    for (const file of ['engine/open-core.ts', 'engine/core.ts', 'state/store.ts']) {
      const reached = [...reachable(graph, file)].filter(
        (f) => /^(reports|resources|library|http|cli|mcp)\//.test(f) || f === 'registry.ts',
      );
      expect({ file, reached }).toEqual({ file, reached: [] });
    }
  });
});
