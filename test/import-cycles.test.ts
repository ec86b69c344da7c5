import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, reachable } from './helpers/import-graph.ts';

const graph = importGraph('src');

describe('the import graph of src/', () => {
  it('reads the imports it must see', () => {
    expect(graph.get('open-engine.ts')).toEqual(['engine/engine.ts', 'engine/temp-paths.ts', 'reports/registry.ts', 'resources/agents/runner.ts']);
    expect(graph.get('reports/endpoint.ts')).toContain('engine/core.ts');
    expect(importCycles(new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts']], ['d.ts', ['d.ts']]]))).toEqual([['a.ts', 'b.ts', 'c.ts'], ['d.ts']]);
  });

  it('has no import cycle, type-only imports included', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('keeps the engine core free of resources and faces: the host wires them', () => {
    for (const file of ['engine/engine.ts', 'engine/core.ts', 'engine/org-scope.ts', 'state/store.ts']) {
      const reached = [...reachable(graph, file)].filter((f) => /^(resources|http|cli)\//.test(f) || f === 'reports/registry.ts');
      expect({ file, reached }).toEqual({ file, reached: [] });
    }
  });
});
