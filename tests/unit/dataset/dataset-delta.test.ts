// Git's delta format: the encoder's deltas rebuild their target exactly, stay small for scattered row changes in a big
// table, and the decoder refuses a delta that does not fit its base.
import { describe, expect, it } from 'vitest';
import { applyDelta, DeltaError, encodeDelta, indexBase } from '../../../lib/dataset/git/delta';
import { createRandom } from '../../../scripts/bench/harness/prng.mjs';

const bytes = (text: string) => new TextEncoder().encode(text);

/** Byte equality without walking a big array's keys (vitest's deep equality does, and runs out of memory). */
function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

function roundTrip(base: Uint8Array, target: Uint8Array): Uint8Array {
  const delta = encodeDelta(base, target);
  expect(same(applyDelta(base, delta), target)).toBe(true);
  return delta;
}

/** A survey-like table: a row per model, a footnote per passage. */
function table(rows: number, edit: (i: number) => string = () => ''): string {
  const lines = ['# Survey', '', '| Model | Stages | Algorithms | Judgment |', '|---|---|---|---|'];
  for (let i = 0; i < rows; i++)
    lines.push(`| Bench Model ${String(i).padStart(3, '0')} | reasoning_rl[^${i}] | GRPO${edit(i)} | Generated for the benchmark. |`);
  lines.push('');
  for (let i = 0; i < rows; i++) lines.push(`[^${i}]: "In stage ${i}, the model is trained with GRPO and a verifiable reward." https://lab.example/r/${i}`);
  return `${lines.join('\n')}\n`;
}

describe('the delta encoder', () => {
  it.each([
    ['both empty', '', ''],
    ['an empty base', '', 'some new text that is longer than one window'],
    ['an empty target', 'an old text that is longer than one window', ''],
    ['shorter than a window', 'abc', 'abd'],
    ['the same text', 'The same sentence, long enough to be copied whole.', 'The same sentence, long enough to be copied whole.'],
    ['text added at the start', 'a sentence long enough to span two windows of sixteen', 'NEW: a sentence long enough to span two windows of sixteen'],
    ['text added at the end', 'a sentence long enough to span two windows of sixteen', 'a sentence long enough to span two windows of sixteen, and more'],
    [
      'a word changed in the middle',
      'the quick brown fox jumps over the lazy dog, again and again',
      'the quick brown cat jumps over the lazy dog, again and again',
    ],
  ])('rebuilds its target exactly: %s', (_name, base, target) => {
    roundTrip(bytes(base), bytes(target));
  });

  it('copies what did not move: scattered row changes in a 2.6 MB table give a delta of a few KB', () => {
    const base = bytes(table(8000));
    const changed = new Set([3, 70, 512, 1999, 4000, 7999]);
    const target = bytes(table(8000, (i) => (changed.has(i) ? ' (re-checked)' : '')));
    expect(base.length).toBeGreaterThan(1_000_000);
    const delta = roundTrip(base, target);
    expect(delta.length).toBeLessThan(500);
  });

  it('finds rows that moved, rows removed and rows added', () => {
    const rows = table(500).split('\n');
    const moved = [...rows.slice(0, 10), ...rows.slice(300, 320), ...rows.slice(10, 300), ...rows.slice(330), 'a new last line'].join('\n');
    const delta = roundTrip(bytes(rows.join('\n')), bytes(moved));
    expect(delta.length).toBeLessThan(400);
  });

  it('rebuilds random bytes against random bases, edited at random (200 seeds)', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const random = createRandom(seed);
      const base = new Uint8Array(random.int(0, 3000));
      // Few distinct bytes, so that blocks repeat and candidates compete.
      for (let i = 0; i < base.length; i++) base[i] = random.int(0, seed % 2 ? 3 : 255);
      const parts: Uint8Array[] = [];
      for (let k = random.int(0, 8); k > 0; k--) {
        const from = random.int(0, base.length);
        parts.push(base.subarray(from, Math.min(base.length, from + random.int(0, 400))));
        const fresh = new Uint8Array(random.int(0, 40));
        for (let i = 0; i < fresh.length; i++) fresh[i] = random.int(0, 255);
        parts.push(fresh);
      }
      const target = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of parts) {
        target.set(p, at);
        at += p.length;
      }
      roundTrip(base, target);
    }
  });

  it('says long copies in several instructions and far offsets in four bytes (a 17 MB base)', () => {
    const base = new Uint8Array(17 * 1024 * 1024);
    const random = createRandom(7);
    for (let i = 0; i < base.length; i += 4096) base[i] = random.int(0, 255);
    for (let i = 0; i < base.length; i++) base[i] = base[i]! ^ ((i * 2654435761) >>> 24);
    const target = new Uint8Array(base.length + 5);
    target.set(base.subarray(0, 1000));
    target.set(bytes('EDIT!'), 1000);
    target.set(base.subarray(1000), 1005);
    const delta = roundTrip(base, target);
    expect(delta.length).toBeLessThan(64);
  });

  it('reuses one index of the base for several targets, and refuses an index of another base', () => {
    const base = bytes(table(50));
    const index = indexBase(base);
    for (const i of [1, 20, 49]) {
      const target = bytes(table(50, (r) => (r === i ? ' and PPO' : '')));
      expect(same(applyDelta(base, encodeDelta(base, target, index)), target)).toBe(true);
    }
    expect(() => encodeDelta(bytes(table(3)), base, index)).toThrow(/another base/);
  });
});

describe('the delta decoder', () => {
  const base = bytes('0123456789abcdefghijklmnopqrstuvwxyz');

  it('reads copies with a size of 0 as 0x10000, as git does', () => {
    const big = new Uint8Array(0x10000 + 10).map((_, i) => i % 251);
    // base size 65546, target size 65536: one copy from offset 0 with no size bytes.
    const delta = Uint8Array.of(0x8a, 0x80, 0x04, 0x80, 0x80, 0x04, 0x80);
    expect(same(applyDelta(big, delta), big.subarray(0, 0x10000))).toBe(true);
  });

  it.each([
    ['a delta of another base', Uint8Array.of(10, 3, 3, 0x61, 0x62, 0x63), /of a 10-byte base/],
    ['a header cut short', Uint8Array.of(0x80 | 36), /inside its header/],
    ['the reserved instruction 0', Uint8Array.of(36, 3, 0), /reserved instruction 0/],
    ['a copy past the base', Uint8Array.of(36, 10, 0x91, 30, 10), /past its base or target/],
    ['an insert past its end', Uint8Array.of(36, 3, 5, 0x61), /past its end or target/],
    ['fewer bytes than announced', Uint8Array.of(36, 5, 2, 0x61, 0x62), /makes 2 bytes, not the 5/],
  ])('refuses %s', (_name, delta, words) => {
    expect(() => applyDelta(base, delta)).toThrow(DeltaError);
    expect(() => applyDelta(base, delta)).toThrow(words);
  });
});
