// The layers of the house plan hold (docs/architecture.md): lib/ is pure, components/ get the browser as an API
// passed in, only the background opens the database, and no module imports itself through a circle. Biome's
// restricted-imports overrides say the same while editing; this test also catches what a linter cannot see
// (a circle of imports across files).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../../..');
/** Folders whose modules make up the extension and its scripts. `scripts/bench` has its own harness and is checked on its own. */
const SOURCE_DIRS = ['entrypoints', 'components', 'lib', 'scripts'];
const LEFT_OUT = [path.join('scripts', 'bench')];

/** Every source file below a folder (relative to the root). */
function sources(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(path.join(ROOT, at))) {
      const rel = path.join(at, name);
      if (statSync(path.join(ROOT, rel)).isDirectory()) walk(rel);
      else if (/\.(ts|tsx|mts|mjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(rel);
    }
  };
  walk(dir);
  return out;
}

/** A file's code without its comments and the text of its strings (so a word in a comment or a message is not a use). */
function code(file: string): string {
  return readFileSync(path.join(ROOT, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:\\])\/\/.*$/gm, '$1')
    .replace(/(['"`])(?:\\.|(?!\1)[^\\\n])*\1/g, (s) => (/^['"]\.{0,2}\//.test(s) || /^['"](wxt|webextension|@wxt)/.test(s) ? s : '""'));
}

/** The module specifiers a file imports (static, dynamic and re-exports). */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*['"]([^'"]+)['"]/g)) found.push(m[1]!);
  for (const m of text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) found.push(m[1]!);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1]!);
  return found;
}

/** The file a relative specifier names, or null for a package (or a file that is not a module, like CSS). */
function resolve(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.join(path.dirname(from), specifier.replace(/\?.*$/, ''));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}.mts`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (/\.(ts|tsx|mts|mjs)$/.test(candidate) && existsSync(path.join(ROOT, candidate)) && statSync(path.join(ROOT, candidate)).isFile()) return candidate;
  }
  return null;
}

/** The circles in a graph of imports (Tarjan's strongly connected components of more than one file, or a file importing itself). */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

const ALL = SOURCE_DIRS.flatMap(sources).filter((f) => !LEFT_OUT.some((dir) => f.startsWith(dir + path.sep)));
const BROWSER_PACKAGES = /^(wxt($|\/)|webextension-polyfill|@wxt-dev\/)/;

describe('layers that hold', () => {
  it('finds the source files', () => {
    expect(ALL.filter((f) => f.startsWith(`lib${path.sep}`)).length).toBeGreaterThan(50);
    expect(ALL.filter((f) => f.startsWith(`components${path.sep}`)).length).toBeGreaterThan(30);
  });

  it('lib/ imports nothing of wxt or the browser polyfill and touches no `browser` or `chrome`', () => {
    const offending: string[] = [];
    for (const file of ALL.filter((f) => f.startsWith(`lib${path.sep}`))) {
      for (const specifier of importsOf(file)) if (BROWSER_PACKAGES.test(specifier)) offending.push(`${file} imports ${specifier}`);
      for (const m of code(file).matchAll(/(?<![.\w$])(browser|chrome)\s*(\.|\?\.|\[)/g)) offending.push(`${file} uses ${m[1]}`);
      for (const specifier of importsOf(file)) {
        const target = resolve(file, specifier);
        if (target && !target.startsWith(`lib${path.sep}`) && !target.startsWith(`public${path.sep}`)) offending.push(`${file} imports ${target}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('components/ reach the browser only through an API passed in: no wxt, no `browser`/`chrome`, nothing from entrypoints/', () => {
    const offending: string[] = [];
    for (const file of ALL.filter((f) => f.startsWith(`components${path.sep}`))) {
      for (const specifier of importsOf(file)) {
        if (BROWSER_PACKAGES.test(specifier)) offending.push(`${file} imports ${specifier}`);
        const target = resolve(file, specifier);
        if (target?.startsWith(`entrypoints${path.sep}`)) offending.push(`${file} imports ${target}`);
      }
      for (const m of code(file).matchAll(/(?<![.\w$])(browser|chrome)\s*(\.|\?\.|\[)/g)) offending.push(`${file} uses ${m[1]}`);
    }
    expect(offending).toEqual([]);
  });

  it('only the background imports lib/db', () => {
    const importers = ALL.filter((file) =>
      importsOf(file).some((specifier) => resolve(file, specifier)?.startsWith(path.join('lib', 'db') + path.sep) && !file.startsWith(path.join('lib', 'db'))),
    );
    expect(importers.filter((f) => !f.startsWith(path.join('entrypoints', 'background') + path.sep))).toEqual([]);
    expect(importers.length).toBeGreaterThan(3);
  });

  it('has no import circle', () => {
    const graph = new Map<string, string[]>();
    for (const file of ALL)
      graph.set(
        file,
        importsOf(file).flatMap((s) => resolve(file, s) ?? []),
      );
    expect(circles(graph)).toEqual([]);
  });

  it('would see a circle and a forbidden import (the checks themselves)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['d.ts']],
      ['e.ts', ['a.ts']],
    ]);
    expect(circles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['d.ts']]);
    expect(importsOf('lib/i18n/index.ts').some((s) => BROWSER_PACKAGES.test(s))).toBe(false);
    expect(importsOf('entrypoints/shared/messaging.ts')).toContain('wxt/browser');
  });
});
