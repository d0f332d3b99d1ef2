// Text from records is only ever rendered as text: no API that parses a string as HTML appears in our code.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../../..');
const FOLDERS = ['lib', 'components', 'entrypoints', 'scripts'];
const FORBIDDEN = /\b(innerHTML|outerHTML|insertAdjacentHTML|dangerouslySetInnerHTML|document\.write|createContextualFragment)\b/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(ts|tsx|mjs|js)$/.test(name) ? [full] : [];
  });
}

describe('no HTML injection sinks', () => {
  const files = FOLDERS.flatMap((f) => sources(path.join(ROOT, f)));

  it('scans the extension, its UI and its scripts', () => {
    expect(files.length).toBeGreaterThan(40);
  });

  it.each(files.map((f) => [path.relative(ROOT, f)]))('%s uses none', (file) => {
    const offending = readFileSync(path.join(ROOT, file), 'utf8')
      .split('\n')
      .map((line, i) => ({ line, n: i + 1 }))
      .filter(({ line }) => FORBIDDEN.test(line) && !line.trim().startsWith('//') && !line.trim().startsWith('*'));
    expect(offending.map((o) => `${file}:${o.n}: ${o.line.trim()}`)).toEqual([]);
  });
});
