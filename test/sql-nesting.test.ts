import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * SQL a reader can follow: a conditional fragment (`cond ? sql`…` : sql`…``) nests at most two deep on
 * one line of `src/`, so each line of a statement's builder reads as at most one choice inside another.
 */
const maxDepth = 2;

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : name.endsWith('.ts') ? [path] : [];
  });

/** For each line, the deepest stack of conditional fragments opened on that line (a small scanner of TS text). */
function conditionalDepths(text: string): Map<number, number> {
  const depths = new Map<number, number>();
  // Each entry is a template literal (its opening line and whether it is a conditional fragment) or a `${` expression.
  const stack: ({ kind: 'template'; line: number; conditional: boolean } | { kind: 'expr'; braces: number })[] = [];
  let line = 1;
  const top = () => stack[stack.length - 1];
  const note = () => {
    const open = stack.filter((s) => s.kind === 'template' && s.conditional && s.line === line).length;
    if (open > (depths.get(line) ?? 0)) depths.set(line, open);
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') line++;
    const t = top();
    if (t?.kind === 'template') {
      if (c === '\\') i++;
      else if (c === '`') stack.pop();
      else if (c === '$' && text[i + 1] === '{') {
        stack.push({ kind: 'expr', braces: 0 });
        i++;
      }
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      line++;
      continue;
    }
    if (c === "'" || c === '"') {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
      continue;
    }
    if (c === '`') {
      const before = text.slice(Math.max(0, i - 12), i);
      stack.push({ kind: 'template', line, conditional: /[?:]\s*sql$/.test(before) });
      note();
      continue;
    }
    if (t?.kind === 'expr') {
      if (c === '{') t.braces++;
      else if (c === '}') {
        if (t.braces === 0) stack.pop();
        else t.braces--;
      }
    }
  }
  return depths;
}

describe('conditional SQL fragments', () => {
  it('the scanner counts nesting on one line, not across lines', () => {
    expect(conditionalDepths('const a = x ? sql`a${y ? sql`b${z ? sql`c` : sql``}` : sql``}` : sql``;').get(1)).toBe(3);
    expect(conditionalDepths('const a = x ? sql`a${y ? sql`b` : sql``}` : sql``;').get(1)).toBe(2);
    expect(conditionalDepths('const a = x ? sql`a\n${y ? sql`b` : sql``}` : sql``;').get(2)).toBe(1);
    expect(conditionalDepths("const s = '`'; // ? sql`\nconst b = sql`x`;").size).toBe(0);
  });

  it(`nest at most ${maxDepth} deep on one line of src/`, () => {
    const root = new URL('../src', import.meta.url).pathname;
    const deep = files(root).flatMap((file) =>
      [...conditionalDepths(readFileSync(file, 'utf8')).entries()]
        .filter(([, depth]) => depth > maxDepth)
        .map(([line, depth]) => `${file.slice(root.length + 1)}:${line} (${depth} deep)`),
    );
    expect(deep).toEqual([]);
  });
});
