/**
 * A long text handed from the background to a page in parts, so that no single message comes near the browser's
 * limit (Chromium refuses a runtime message over 64 MiB; the whole survey at 100,000 claims is about 70 MB of
 * JSON). The background serialises once and keeps the text for a short while under a read id; the page asks for
 * the parts in turn and joins them. Pure: the clock and the ids come in.
 */

/** Code units per part: at most 6 bytes each in the message's serialised form, so a part stays far below 64 MiB. */
export const TEXT_PART = 4 * 1024 * 1024;

/** One part of a text: `read` is null when this part is the whole text. */
export interface TextPart {
  json: string;
  read: string | null;
  /** Length of the whole text, in code units. */
  total: number;
}

/** What a page asks for: nothing to start a read, or the read's id and where the next part starts. */
export interface TextPartRequest {
  read?: string;
  from?: number;
}

/** The error of a read whose id is unknown: its text was dropped (read too slowly, or the worker restarted). It crosses the message channel as this sentence. */
export const READ_EXPIRED = 'This read of the survey has expired; the page reads it again.';

interface Kept {
  text: string;
  until: number;
}

/** The background's side: texts kept under read ids until their last part is taken or they expire. */
export class TextReads {
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly options: { newId: () => string; now: () => number; ttlMs?: number; partSize?: number }) {}

  /** A new read: the first part of the text `produce` gives, the text kept under a new read id when more parts follow. */
  first(produce: () => string): TextPart {
    this.dropExpired();
    const text = produce();
    const size = this.options.partSize ?? TEXT_PART;
    if (text.length <= size) return { json: text, read: null, total: text.length };
    const read = this.options.newId();
    this.kept.set(read, { text, until: this.options.now() + (this.options.ttlMs ?? 60_000) });
    return { json: text.slice(0, size), read, total: text.length };
  }

  /** The part of read `read` that starts at `from`; the text is dropped once its last part is taken. */
  next(read: string, from: number): TextPart {
    this.dropExpired();
    const kept = this.kept.get(read);
    if (!kept) throw new Error(READ_EXPIRED);
    const size = this.options.partSize ?? TEXT_PART;
    const end = Math.min(kept.text.length, from + size);
    if (end >= kept.text.length) this.kept.delete(read);
    else kept.until = this.options.now() + (this.options.ttlMs ?? 60_000);
    return { json: kept.text.slice(from, end), read, total: kept.text.length };
  }

  /** Reads still kept (for tests). */
  get size(): number {
    return this.kept.size;
  }

  private dropExpired(): void {
    const now = this.options.now();
    for (const [id, kept] of this.kept) if (kept.until < now) this.kept.delete(id);
  }
}

/**
 * The page's side: the whole text, asking for its parts in turn. A read that expired on the way (the worker
 * restarted) is started again once; `onProgress` hears the code units read so far and the total.
 */
export async function readAllParts(ask: (request: TextPartRequest) => Promise<TextPart>, onProgress?: (read: number, total: number) => void): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const first = await ask({});
    if (first.read === null) return first.json;
    const parts = [first.json];
    let at = first.json.length;
    onProgress?.(at, first.total);
    try {
      while (at < first.total) {
        const part = await ask({ read: first.read, from: at });
        if (!part.json.length) throw new Error('The background sent an empty part of the survey; reload the page.');
        parts.push(part.json);
        at += part.json.length;
        onProgress?.(at, first.total);
      }
      return parts.join('');
    } catch (error) {
      if (!(error instanceof Error && error.message === READ_EXPIRED) || attempt > 0) throw error;
    }
  }
}
