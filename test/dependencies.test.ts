import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/**
 * Every package a module the package ships names (the TypeScript under src/, which the build compiles;
 * the .mjs files there run only from the sources, through tsx): imports, dynamic imports, and `require` or
 * `require.resolve` through createRequire.
 */
function importedPackages(): Set<string> {
  const found = new Set<string>();
  const files = readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true }).filter(
    (e) => e.isFile() && e.name.endsWith('.ts'),
  );
  for (const f of files) {
    const text = readFileSync(join(f.parentPath, f.name), 'utf8');
    for (const m of text.matchAll(/(?:from\s+|import\(\s*|require(?:\.resolve)?\(\s*|\)\(\s*)'([^'.][^']*)'/g)) {
      const spec = m[1]!;
      if (spec.startsWith('node:') || builtinModules.includes(spec)) continue;
      found.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    }
  }
  return found;
}

describe('the runtime dependencies', () => {
  it('are exactly the packages src/ imports, except chdb, which a user installs to enable the chdb backend', () => {
    const imported = importedPackages();
    imported.delete('chdb');
    expect(Object.keys(pkg.dependencies).sort()).toEqual([...imported].sort());
    expect(pkg.devDependencies.chdb).toBeDefined();
  });
});
