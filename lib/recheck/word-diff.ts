/**
 * Old → new of an edited passage, word by word: the longest common run of words kept, the rest marked removed or
 * added, so a curator sees what a vendor reworded at a glance. Pure.
 */

/** One run of a word diff. */
export interface DiffPart {
  op: 'same' | 'removed' | 'added';
  text: string;
}

/** Words and the white space after each, so the parts join back into the texts. */
function words(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** Longest passages compared word for word (longer ones are shown as one removal and one addition). */
const MAX_WORDS = 2_000;

/** The word diff of `before` → `after`: runs in order, neighbours of one kind joined. */
export function wordDiff(before: string, after: string): DiffPart[] {
  const a = words(before);
  const b = words(after);
  const key = (w: string) => w.trim();
  const parts: DiffPart[] = [];
  const push = (op: DiffPart['op'], text: string) => {
    const last = parts[parts.length - 1];
    if (last && last.op === op) last.text += text;
    else if (text) parts.push({ op, text });
  };
  if (a.length > MAX_WORDS || b.length > MAX_WORDS) {
    push('removed', before);
    push('added', after);
    return parts;
  }
  // Longest common subsequence by suffix lengths, then one walk from the front.
  const m = a.length;
  const n = b.length;
  const table = new Uint16Array((m + 1) * (n + 1));
  for (let i = m - 1; i >= 0; i--)
    for (let j = n - 1; j >= 0; j--)
      table[i * (n + 1) + j] =
        key(a[i]!) === key(b[j]!) ? table[(i + 1) * (n + 1) + j + 1]! + 1 : Math.max(table[(i + 1) * (n + 1) + j]!, table[i * (n + 1) + j + 1]!);
  let i = 0;
  let j = 0;
  while (i < m && j < n) {
    if (key(a[i]!) === key(b[j]!)) {
      push('same', b[j]!);
      i++;
      j++;
    } else if (table[(i + 1) * (n + 1) + j]! >= table[i * (n + 1) + j + 1]!) push('removed', a[i++]!);
    else push('added', b[j++]!);
  }
  while (i < m) push('removed', a[i++]!);
  while (j < n) push('added', b[j++]!);
  return parts;
}
