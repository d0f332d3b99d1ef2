/**
 * Git's pkt-line framing (smart protocol, version 0/1): each line is its
 * length in 4 hex digits (the 4 included) and its bytes; `0000` is a flush.
 * With `side-band-64k`, a line's first byte says its band: 1 data, 2 progress
 * (the server's `remote:` messages), 3 a fatal error.
 */

/** A pkt-line of text or bytes. */
export function pktLine(payload: string | Uint8Array): Uint8Array {
  const body = typeof payload === 'string' ? new TextEncoder().encode(payload) : payload;
  if (body.length > 65516) throw new Error('a pkt-line holds at most 65516 bytes');
  const line = new Uint8Array(body.length + 4);
  line.set(new TextEncoder().encode((body.length + 4).toString(16).padStart(4, '0')));
  line.set(body, 4);
  return line;
}

/** The flush packet. */
export const FLUSH_PKT = new TextEncoder().encode('0000');

/** The server's answer does not follow the protocol. */
export class ProtocolError extends Error {
  override name = 'ProtocolError';
}

/** What `PktReader.read` gives: a line's bytes, `flush`, or `end` when the stream ended between lines. */
export type Pkt = Uint8Array | 'flush' | 'end';

/** Reads pkt-lines (and, after them, raw bytes) from a stream of chunks. */
export class PktReader {
  private buffer = new Uint8Array(0);
  private done = false;
  private readonly chunks: AsyncIterator<Uint8Array>;

  constructor(source: AsyncIterable<Uint8Array>) {
    this.chunks = source[Symbol.asyncIterator]();
  }

  /** Makes at least `n` bytes buffered; false when the stream ends first. */
  private async fill(n: number): Promise<boolean> {
    while (this.buffer.length < n) {
      if (this.done) return false;
      const next = await this.chunks.next();
      if (next.done) {
        this.done = true;
        return false;
      }
      const grown = new Uint8Array(this.buffer.length + next.value.length);
      grown.set(this.buffer);
      grown.set(next.value, this.buffer.length);
      this.buffer = grown;
    }
    return true;
  }

  private take(n: number): Uint8Array {
    const out = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(n);
    return out;
  }

  /** The next pkt-line; a stream cut inside a line, or a line that is not one, is a `ProtocolError`. */
  async read(): Promise<Pkt> {
    if (!(await this.fill(4))) {
      if (this.buffer.length) throw new ProtocolError('the answer was cut short inside a line');
      return 'end';
    }
    const head = new TextDecoder().decode(this.buffer.subarray(0, 4));
    if (!/^[0-9a-f]{4}$/i.test(head)) throw new ProtocolError(`expected a pkt-line, got ${JSON.stringify(head)}`);
    const length = Number.parseInt(head, 16);
    if (length === 0) {
      this.take(4);
      return 'flush';
    }
    if (length < 4) throw new ProtocolError(`a pkt-line of length ${length} is not allowed`);
    if (!(await this.fill(length))) throw new ProtocolError('the answer was cut short inside a line');
    return this.take(length).subarray(4).slice();
  }

  /** Every byte left, raw (a pack sent without side-band). */
  async rest(): Promise<Uint8Array> {
    const parts: Uint8Array[] = [this.buffer];
    this.buffer = new Uint8Array(0);
    while (!this.done) {
      const next = await this.chunks.next();
      if (next.done) this.done = true;
      else parts.push(next.value);
    }
    return joinBytes(parts);
  }
}

/** The parts, one after the other, in one array. */
export function joinBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A line's text without its final newline. */
export function lineText(pkt: Uint8Array): string {
  return new TextDecoder().decode(pkt).replace(/\n$/, '');
}

/** Splits progress bytes (band 2) into whole lines, keeping the unfinished end for the next call. */
export class MessageLines {
  private partial = '';
  private readonly decoder = new TextDecoder();

  constructor(private readonly onLine: (line: string) => void) {}

  /** Adds bytes of band 2. */
  push(bytes: Uint8Array): void {
    const text = this.partial + this.decoder.decode(bytes, { stream: true });
    const parts = text.split(/\r\n|\r|\n/);
    this.partial = parts.pop() ?? '';
    for (const line of parts) this.onLine(line);
  }

  /** Gives the unfinished end as a line, if any. */
  end(): void {
    const rest = this.partial + this.decoder.decode();
    this.partial = '';
    if (rest) this.onLine(rest);
  }
}

/**
 * Reads side-band lines until a flush or the end: band 1 to `onData`, band 2
 * to `messages`, band 3 a `ProtocolError` carrying the server's words.
 */
export async function readSideBand(reader: PktReader, onData: (bytes: Uint8Array) => void, messages: MessageLines, first?: Uint8Array): Promise<void> {
  let pkt: Pkt = first ?? (await reader.read());
  for (;;) {
    if (pkt === 'flush' || pkt === 'end') break;
    const band = pkt[0];
    const bytes = pkt.subarray(1);
    if (band === 1) onData(bytes);
    else if (band === 2) messages.push(bytes);
    else if (band === 3) {
      messages.end();
      throw new ProtocolError(`the server stopped: ${lineText(bytes).trim()}`);
    } else throw new ProtocolError(`a side-band line of unknown band ${band}`);
    pkt = await reader.read();
  }
  messages.end();
}
