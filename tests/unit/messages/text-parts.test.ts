// The whole survey handed from the background to a page in parts: no message near the browser's limit.
import { describe, expect, it } from 'vitest';
import { READ_EXPIRED, readAllParts, type TextPartRequest, TextReads } from '../../../lib/messages/text-parts';

/** A background with a clock the test moves, and parts of `size` code units. */
function background(size: number, ttlMs = 1000) {
  let now = 0;
  let ids = 0;
  const reads = new TextReads({ newId: () => `read-${++ids}`, now: () => now, ttlMs, partSize: size });
  return { reads, tick: (ms: number) => (now += ms) };
}

describe('reading a long text in parts', () => {
  it('gives a short text whole, with no read kept', async () => {
    const { reads } = background(10);
    expect(reads.first(() => 'short')).toEqual({ json: 'short', read: null, total: 5 });
    expect(reads.size).toBe(0);
    await expect(readAllParts(async (r) => (r.read ? reads.next(r.read, r.from ?? 0) : reads.first(() => 'short')))).resolves.toBe('short');
  });

  it('joins the parts of a long text exactly (CJK and emoji included), each at most the part size, and drops the read after its last part', async () => {
    const text = JSON.stringify({ claims: Array.from({ length: 50 }, (_, i) => ({ id: i, quote: `模型 ${i} 😀 GRPO` })) });
    const { reads } = background(97);
    const asked: TextPartRequest[] = [];
    const progress: number[] = [];
    const out = await readAllParts(
      async (r) => {
        asked.push(r);
        const part = r.read ? reads.next(r.read, r.from ?? 0) : reads.first(() => text);
        expect(part.json.length).toBeLessThanOrEqual(97);
        return part;
      },
      (read, total) => {
        expect(total).toBe(text.length);
        progress.push(read);
      },
    );
    expect(out).toBe(text);
    expect(asked.length).toBe(Math.ceil(text.length / 97));
    expect(progress.at(-1)).toBe(text.length);
    expect(reads.size).toBe(0);
  });

  it('reads again from the start once when the read expired on the way, and fails with the reason the second time', async () => {
    const { reads, tick } = background(4, 100);
    let firsts = 0;
    const ask = async (r: TextPartRequest) => {
      if (!r.read) {
        firsts += 1;
        return reads.first(() => 'abcdefghij');
      }
      // The first read waits too long before its second part; the second read is served at once.
      if (firsts === 1) tick(500);
      return reads.next(r.read, r.from ?? 0);
    };
    await expect(readAllParts(ask)).resolves.toBe('abcdefghij');
    expect(firsts).toBe(2);

    const always = async (r: TextPartRequest) => {
      if (!r.read) return reads.first(() => 'abcdefghij');
      tick(500);
      return reads.next(r.read, r.from ?? 0);
    };
    await expect(readAllParts(always)).rejects.toThrow(READ_EXPIRED);
  });

  it('refuses an unknown read id with the sentence the page recognises', () => {
    const { reads } = background(4);
    expect(() => reads.next('nope', 0)).toThrow(READ_EXPIRED);
  });
});
