/**
 * Git's delta format, both ways: `encodeDelta` describes a target as copies
 * from a base and inserted bytes, `applyDelta` rebuilds the target. A push
 * sends a changed README or tree as such a delta of the version the host
 * already has, so a few rows changed in a 2.6 MB table travel as a few KB.
 *
 * The format (git's `patch-delta.c`): the base's size and the target's size
 * as little-endian base-128 numbers, then instructions — a byte with the high
 * bit set copies `size` bytes from `offset` of the base (the low 4 bits say
 * which offset bytes follow, the next 3 which size bytes; a size of 0 means
 * 0x10000), a byte from 1 to 127 inserts that many following bytes.
 *
 * The encoder indexes the base in 16-byte blocks (at multiples of 16) by a
 * hash, slides a 16-byte window over the target, and at each position looks
 * the window up, extends each candidate forward (and backward into bytes not
 * yet emitted) and copies the longest; positions with no match become
 * inserted bytes. Pure and synchronous.
 */

/** The window (and block) size the encoder matches on. */
export const DELTA_WINDOW = 16;

const PRIME = 0x01000193;
/** `PRIME` to the power `DELTA_WINDOW - 1`, modulo 2^32: the weight of the byte leaving the window. */
const OUT_WEIGHT = (() => {
  let w = 1;
  for (let i = 1; i < DELTA_WINDOW; i++) w = Math.imul(w, PRIME);
  return w;
})();
/** Candidates looked at per position, at most (identical blocks make long chains). */
const MAX_PROBES = 32;
/** A match this long is taken without looking at further candidates. */
const GOOD_ENOUGH = 4096;
/** The largest copy one instruction can say (three size bytes). */
const MAX_COPY = 0xffffff;

/** The base indexed for encoding (reusable for several targets against one base). */
export interface DeltaIndex {
  base: Uint8Array;
  bits: number;
  /** Per bucket, the first block (index + 1; 0 for none). */
  heads: Int32Array;
  /** Per block, the next block of its bucket (index + 1; 0 for none). */
  next: Int32Array;
  /** Per block, its full hash. */
  hashes: Int32Array;
}

function windowHash(bytes: Uint8Array, at: number): number {
  let h = 0;
  for (let i = 0; i < DELTA_WINDOW; i++) h = (Math.imul(h, PRIME) + bytes[at + i]!) | 0;
  return h;
}

function bucketOf(hash: number, bits: number): number {
  return Math.imul(hash, 0x9e3779b1) >>> (32 - bits);
}

/** Indexes `base` in 16-byte blocks for `encodeDelta`. */
export function indexBase(base: Uint8Array): DeltaIndex {
  const blocks = Math.floor(base.length / DELTA_WINDOW);
  let bits = 4;
  while (1 << bits < blocks * 2 && bits < 24) bits++;
  const heads = new Int32Array(1 << bits);
  const next = new Int32Array(blocks);
  const hashes = new Int32Array(blocks);
  // Last block first, so that each bucket lists its blocks in the order of the base.
  for (let b = blocks - 1; b >= 0; b--) {
    const h = windowHash(base, b * DELTA_WINDOW);
    hashes[b] = h;
    const bucket = bucketOf(h, bits);
    next[b] = heads[bucket]!;
    heads[bucket] = b + 1;
  }
  return { base, bits, heads, next, hashes };
}

/** A growing byte buffer. */
class Bytes {
  private buf: Uint8Array;
  length = 0;
  constructor(capacity: number) {
    this.buf = new Uint8Array(Math.max(16, capacity));
  }
  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.buf.subarray(0, this.length));
    this.buf = grown;
  }
  byte(b: number): void {
    this.room(1);
    this.buf[this.length++] = b;
  }
  bytes(src: Uint8Array): void {
    this.room(src.length);
    this.buf.set(src, this.length);
    this.length += src.length;
  }
  varint(n: number): void {
    let v = n;
    while (v >= 0x80) {
      this.byte((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    this.byte(v);
  }
  done(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

function emitInsert(out: Bytes, target: Uint8Array, from: number, to: number): void {
  for (let at = from; at < to; at += 127) {
    const end = Math.min(to, at + 127);
    out.byte(end - at);
    out.bytes(target.subarray(at, end));
  }
}

function emitCopy(out: Bytes, offset: number, size: number): void {
  let off = offset;
  let left = size;
  while (left > 0) {
    const n = Math.min(left, MAX_COPY);
    let cmd = 0x80;
    const args: number[] = [];
    for (let i = 0; i < 4; i++) {
      const b = Math.floor(off / 2 ** (8 * i)) & 0xff;
      if (b) {
        cmd |= 1 << i;
        args.push(b);
      }
    }
    for (let i = 0; i < 3; i++) {
      const b = (n >>> (8 * i)) & 0xff;
      if (b) {
        cmd |= 0x10 << i;
        args.push(b);
      }
    }
    out.byte(cmd);
    for (const b of args) out.byte(b);
    off += n;
    left -= n;
  }
}

/**
 * A delta that rebuilds `target` from `base` (git's format). Pass an index of
 * `base` made by `indexBase` to encode several targets against one base.
 */
export function encodeDelta(base: Uint8Array, target: Uint8Array, index: DeltaIndex = indexBase(base)): Uint8Array {
  if (index.base !== base) throw new Error('encodeDelta: the index is of another base');
  const out = new Bytes(Math.min(target.length, 1 << 16) + 32);
  out.varint(base.length);
  out.varint(target.length);
  const { heads, next, hashes, bits } = index;
  const tlen = target.length;
  const blen = base.length;
  let pending = 0;
  let i = 0;
  let h = tlen >= DELTA_WINDOW ? windowHash(target, 0) : 0;
  while (i + DELTA_WINDOW <= tlen) {
    let bestLen = 0;
    let bestBack = 0;
    let bestOffset = 0;
    let probes = 0;
    for (let b = heads[bucketOf(h, bits)]!; b !== 0 && probes < MAX_PROBES; b = next[b - 1]!) {
      if (hashes[b - 1] !== h) continue;
      probes++;
      const bo = (b - 1) * DELTA_WINDOW;
      let len = 0;
      while (i + len < tlen && bo + len < blen && target[i + len] === base[bo + len]) len++;
      if (len < DELTA_WINDOW) continue;
      let back = 0;
      while (back < i - pending && back < bo && target[i - back - 1] === base[bo - back - 1]) back++;
      if (len + back > bestLen + bestBack) {
        bestLen = len;
        bestBack = back;
        bestOffset = bo;
        if (len + back >= GOOD_ENOUGH) break;
      }
    }
    if (bestLen) {
      emitInsert(out, target, pending, i - bestBack);
      emitCopy(out, bestOffset - bestBack, bestLen + bestBack);
      i += bestLen;
      pending = i;
      if (i + DELTA_WINDOW <= tlen) h = windowHash(target, i);
      continue;
    }
    if (i + DELTA_WINDOW < tlen) h = (Math.imul(h - Math.imul(target[i]!, OUT_WEIGHT), PRIME) + target[i + DELTA_WINDOW]!) | 0;
    i++;
  }
  emitInsert(out, target, pending, tlen);
  return out.done();
}

/** Why a delta cannot be applied. */
export class DeltaError extends Error {
  override name = 'DeltaError';
}

/** Rebuilds the target a delta describes from its base; a delta that does not fit the base is a `DeltaError`. */
export function applyDelta(base: Uint8Array, delta: Uint8Array): Uint8Array {
  let p = 0;
  const varint = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (p >= delta.length) throw new DeltaError('the delta ends inside its header');
      const b = delta[p++]!;
      value += (b & 0x7f) * scale;
      scale *= 0x80;
      if (!(b & 0x80)) return value;
    }
  };
  const baseSize = varint();
  if (baseSize !== base.length) throw new DeltaError(`the delta is of a ${baseSize}-byte base, not of this ${base.length}-byte one`);
  const size = varint();
  const target = new Uint8Array(size);
  let o = 0;
  while (p < delta.length) {
    const cmd = delta[p++]!;
    if (cmd & 0x80) {
      let offset = 0;
      let n = 0;
      for (let i = 0; i < 4; i++) if (cmd & (1 << i)) offset += delta[p++]! * 2 ** (8 * i);
      for (let i = 0; i < 3; i++) if (cmd & (0x10 << i)) n |= delta[p++]! << (8 * i);
      if (p > delta.length) throw new DeltaError('the delta ends inside a copy');
      if (n === 0) n = 0x10000;
      if (offset + n > base.length || o + n > size) throw new DeltaError('a copy of the delta reaches past its base or target');
      target.set(base.subarray(offset, offset + n), o);
      o += n;
    } else if (cmd) {
      if (p + cmd > delta.length || o + cmd > size) throw new DeltaError('an insert of the delta reaches past its end or target');
      target.set(delta.subarray(p, p + cmd), o);
      p += cmd;
      o += cmd;
    } else throw new DeltaError('the delta holds the reserved instruction 0');
  }
  if (o !== size) throw new DeltaError(`the delta makes ${o} bytes, not the ${size} it announces`);
  return target;
}
