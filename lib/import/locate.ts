/**
 * Line numbers inside a JSON document, so that a problem with one value of a
 * file (the 3rd annotation, the 12th backup record) can be reported as
 * "line N". Pure; used only when there is something to report.
 *
 * Paths are written `$`, `$["first"]["items"][3]`: object keys as JSON
 * strings in brackets, array indexes as numbers.
 */

/** The path of a child value: a key of an object or an index of an array. */
export function childPath(parent: string, step: string | number): string {
  return typeof step === 'number' ? `${parent}[${step}]` : `${parent}[${JSON.stringify(step)}]`;
}

/**
 * The 1-based line on which each object and array of a JSON document starts,
 * by path. Malformed text gives what was read before the problem.
 */
export function jsonValueLines(text: string): Map<string, number> {
  return scan(text).lines;
}

/** One pass over JSON text: where objects and arrays start, and the line where the text stops being JSON (null if it never does). */
function scan(text: string): { lines: Map<string, number>; failure: number | null } {
  const lines = new Map<string, number>();
  let i = 0;
  let line = 1;
  const space = () => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 10) line += 1;
      else if (c !== 32 && c !== 9 && c !== 13) return;
      i += 1;
    }
  };
  const string = (): string => {
    const start = i;
    for (i += 1; i < text.length && text[i] !== '"'; i += text[i] === '\\' ? 2 : 1);
    i += 1;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const expect = (char: string) => {
    space();
    if (text[i] !== char) throw new Error(`expected ${char}`);
    i += 1;
  };
  const value = (path: string, depth: number): void => {
    if (depth > 512) throw new Error('too deep');
    space();
    const c = text[i];
    if (c === '{' || c === '[') {
      lines.set(path, line);
      i += 1;
      space();
      const close = c === '{' ? '}' : ']';
      if (text[i] === close) {
        i += 1;
        return;
      }
      for (let n = 0; ; n++) {
        if (c === '{') {
          space();
          const key = string();
          expect(':');
          value(childPath(path, key), depth + 1);
        } else {
          value(childPath(path, n), depth + 1);
        }
        space();
        if (text[i] === ',') {
          i += 1;
          continue;
        }
        expect(close);
        return;
      }
    }
    if (c === '"') {
      string();
      return;
    }
    if (c === undefined) throw new Error('unexpected end');
    const start = i;
    while (i < text.length && !/[\s,\]}]/.test(text[i]!)) i += 1;
    if (!/^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)$/.test(text.slice(start, i))) {
      i = start;
      throw new Error('not a JSON value');
    }
  };
  try {
    value('$', 0);
    space();
    if (i < text.length) throw new Error('text after the value');
    return { lines, failure: null };
  } catch {
    // Malformed or too deep: keep what was found, and where reading stopped.
    return { lines, failure: line };
  }
}

/** The 1-based line of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

/**
 * The line a `JSON.parse` error points at, read from its message ("line 3
 * column 5", or "position 120"), else found by reading the text; 0 when the
 * text reads as JSON after all.
 */
export function syntaxErrorLine(text: string, error: unknown): number {
  const message = error instanceof Error ? error.message : String(error);
  const byLine = /line (\d+) column \d+/.exec(message);
  if (byLine) return Number(byLine[1]);
  const byPosition = /position (\d+)/.exec(message);
  if (byPosition) return lineAt(text, Number(byPosition[1]));
  // Older engines name no place: find it by reading the text.
  return scan(text).failure ?? 0;
}
