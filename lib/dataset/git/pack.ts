/**
 * Git pack files, the way objects travel: `writePack` makes one (version 2)
 * from whole objects and from deltas against objects the receiver already
 * has (REF_DELTA: the base named by its id, so the pack is "thin" and the
 * receiver completes it from its own objects), and `checkPack` checks one
 * that arrived (its header, and the SHA-1 of its bytes against its trailer).
 *
 * Compression is zlib through the platform's `CompressionStream`, hashing
 * SHA-1 through `crypto.subtle`: both are in extension pages, service workers
 * and Node alike, so this needs no `Buffer` and no package.
 */
import { joinBytes } from './pktline';

/** The object types a pack holds whole. */
export type ObjectType = 'commit' | 'tree' | 'blob' | 'tag';

/** One object of a pack: whole, or a delta against a base the receiver has (`base`: its id). */
export type PackObject = { type: ObjectType; data: Uint8Array } | { type: 'ref-delta'; base: string; data: Uint8Array };

const TYPE_CODES: Record<PackObject['type'], number> = { commit: 1, tree: 2, blob: 3, tag: 4, 'ref-delta': 7 };

/** Bytes through a compression or decompression stream. */
async function through(data: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const source = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(source).arrayBuffer());
}

/** zlib-deflated bytes (what git stores and sends). */
export function deflate(data: Uint8Array): Promise<Uint8Array> {
  return through(data, new CompressionStream('deflate'));
}

/** zlib-inflated bytes. */
export function inflate(data: Uint8Array): Promise<Uint8Array> {
  return through(data, new DecompressionStream('deflate'));
}

/** Lower-case hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/** Bytes of a hex string (an object id). */
export function fromHex(hex: string): Uint8Array {
  if (!/^(?:[0-9a-f]{2})*$/i.test(hex)) throw new Error(`not hex: ${hex.slice(0, 50)}`);
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** The SHA-1 of bytes. */
export async function sha1(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-1', data as Uint8Array<ArrayBuffer>));
}

/** The id git gives an object: the SHA-1 of `<type> <size>\0` and its content. */
export async function objectId(type: ObjectType, data: Uint8Array): Promise<string> {
  const head = new TextEncoder().encode(`${type} ${data.length}\0`);
  const whole = new Uint8Array(head.length + data.length);
  whole.set(head);
  whole.set(data, head.length);
  return toHex(await sha1(whole));
}

/** The header of an object in a pack: its type and (uncompressed) size, 4 bits then 7 per byte. */
function entryHeader(type: number, size: number): Uint8Array {
  const bytes: number[] = [];
  let rest = Math.floor(size / 16);
  bytes.push((type << 4) | (size & 15) | (rest ? 0x80 : 0));
  while (rest) {
    const b = rest % 0x80;
    rest = Math.floor(rest / 0x80);
    bytes.push(b | (rest ? 0x80 : 0));
  }
  return Uint8Array.from(bytes);
}

function u32(n: number): Uint8Array {
  return Uint8Array.of((n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
}

/** One object as a pack holds it: its header (type and size), the base's id for a delta, the deflated data. */
async function packEntry(object: PackObject): Promise<Uint8Array[]> {
  const parts = [entryHeader(TYPE_CODES[object.type], object.data.length)];
  if (object.type === 'ref-delta') {
    const base = fromHex(object.base);
    if (base.length !== 20) throw new Error(`not an object id: ${object.base}`);
    parts.push(base);
  }
  parts.push(await deflate(object.data));
  return parts;
}

/** A version 2 pack of `objects`, with its SHA-1 trailer. */
export async function writePack(objects: readonly PackObject[]): Promise<Uint8Array> {
  const parts: Uint8Array[] = [new TextEncoder().encode('PACK'), u32(2), u32(objects.length)];
  for (const object of objects) parts.push(...(await packEntry(object)));
  const body = joinBytes(parts);
  return joinBytes([body, await sha1(body)]);
}

/** `pack` with `objects` added at its end (its count and trailer made again): how a thin pack is made whole. */
export async function appendToPack(pack: Uint8Array, objects: readonly PackObject[]): Promise<Uint8Array> {
  const head = pack.slice(0, 12);
  const count = new DataView(head.buffer).getUint32(8);
  head.set(u32(count + objects.length), 8);
  const parts: Uint8Array[] = [head, pack.subarray(12, pack.length - 20)];
  for (const object of objects) parts.push(...(await packEntry(object)));
  const body = joinBytes(parts);
  return joinBytes([body, await sha1(body)]);
}

/** The offsets of a pack's objects by id, read from its (version 2) index. */
export function indexOffsets(idx: Uint8Array): Map<string, number> {
  const view = new DataView(idx.buffer, idx.byteOffset, idx.byteLength);
  if (idx.length < 8 + 1024 || view.getUint32(0) !== 0xff744f63 || view.getUint32(4) !== 2) throw new PackError('not a version 2 pack index');
  const count = view.getUint32(8 + 255 * 4);
  const hashes = 8 + 1024;
  const offsets = hashes + count * 24;
  if (idx.length < offsets + count * 4 + 40) throw new PackError('the pack index is cut short');
  const out = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const offset = view.getUint32(offsets + i * 4);
    if (offset & 0x80000000) throw new PackError('packs over 2 GB are not read');
    out.set(toHex(idx.subarray(hashes + i * 20, hashes + i * 20 + 20)), offset);
  }
  return out;
}

/** The ids of the bases a pack's REF_DELTA objects name (`offsets`: where its objects start). */
export function deltaBases(pack: Uint8Array, offsets: Iterable<number>): Set<string> {
  const bases = new Set<string>();
  for (const start of offsets) {
    let p = start;
    const type = (pack[p]! >> 4) & 7;
    while (pack[p++]! & 0x80 && p < pack.length);
    if (type === 7) bases.add(toHex(pack.subarray(p, p + 20)));
  }
  return bases;
}

/** Why a pack that arrived cannot be used. */
export class PackError extends Error {
  override name = 'PackError';
}

/** Checks a pack that arrived: its header, and its bytes against its SHA-1 trailer. Returns its object count and name (the trailer, hex). */
export async function checkPack(pack: Uint8Array): Promise<{ objects: number; name: string }> {
  if (pack.length < 32) throw new PackError(`the pack is ${pack.length} bytes long, too short to be one`);
  if (new TextDecoder().decode(pack.subarray(0, 4)) !== 'PACK') throw new PackError('the data is not a pack (no PACK signature)');
  const view = new DataView(pack.buffer, pack.byteOffset, pack.byteLength);
  const version = view.getUint32(4);
  if (version !== 2 && version !== 3) throw new PackError(`the pack is of version ${version}, not 2`);
  const trailer = pack.subarray(pack.length - 20);
  const sum = await sha1(pack.subarray(0, pack.length - 20));
  if (toHex(sum) !== toHex(trailer)) throw new PackError('the pack arrived damaged (its checksum does not match)');
  return { objects: view.getUint32(8), name: toHex(trailer) };
}
