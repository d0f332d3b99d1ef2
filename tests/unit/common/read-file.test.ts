// Reading import files in the page: slice by slice with progress, multi-byte characters intact across slices.
import { describe, expect, it } from 'vitest';
import { readFileText } from '../../../components/common/files';

describe('readFileText', () => {
  it('reads a small file at once, without its byte-order mark', async () => {
    const seen: Array<[number, number]> = [];
    expect(await readFileText(new Blob(['\uFEFF{"a":1}\n']), (l, t) => seen.push([l, t]))).toBe('{"a":1}\n');
    expect(seen).toEqual([[11, 11]]);
  });

  it('reads a large file in slices, reporting progress, keeping characters split across slices whole', async () => {
    const line = `${JSON.stringify({ value: '未公开 — not disclosed', pad: 'x'.repeat(200) })}\n`;
    const text = line.repeat(Math.ceil((9 * 1024 * 1024) / line.length));
    const blob = new Blob([text]);
    const seen: number[] = [];
    const read = await readFileText(blob, (loaded, total) => {
      expect(total).toBe(blob.size);
      seen.push(loaded);
    });
    expect(read.length).toBe(text.length);
    expect(read === text).toBe(true);
    expect(seen.length).toBe(3);
    expect(seen[seen.length - 1]).toBe(blob.size);
  });
});
