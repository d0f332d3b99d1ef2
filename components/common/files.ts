/** Files in and out of an extension page: downloads through a Blob URL, and reading large files without freezing the page. */

/**
 * Longest part handed to the Blob constructor, in UTF-16 code units. Chromium builds a 9 MB Blob about twice as
 * fast from parts this size as from parts of 16 or 64 Ki, and four to five times as fast as from one string or
 * parts of 1 Mi (`scripts/bench/panel-transfer/ab-export.mjs`, interleaved runs).
 */
const BLOB_PART = 256 * 1024;

/** `text` cut into parts of at most `size` (≥ 2) code units, never between the two halves of a surrogate pair (joined, they are `text`). */
export function blobParts(text: string, size: number = BLOB_PART): string[] {
  const parts: string[] = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + size);
    // A high surrogate just before the cut belongs with the low one after it.
    if (end < text.length && end - start > 1 && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end -= 1;
    parts.push(text.slice(start, end));
    start = end;
  }
  return parts;
}

/** Downloads text as a file (an `<a download>` on a Blob URL: no `downloads` permission needed). */
export function downloadText(fileName: string, text: string, mimeType: string): void {
  downloadBlob(fileName, new Blob(blobParts(text), { type: mimeType }));
}

/**
 * A Blob of text, for parts of a download made ahead (`JsonlPartCache`): a file put together from Blobs made
 * earlier costs a few milliseconds, where a Blob of the whole text costs ~100 ms for 9 MB.
 */
export function blobOfText(text: string): Blob {
  return new Blob(blobParts(text));
}

/** Downloads parts (Blobs made ahead, and text) as one file, in their order. */
export function downloadParts(fileName: string, parts: ReadonlyArray<Blob | string>, mimeType: string): void {
  const whole = parts.flatMap((p): BlobPart[] => (typeof p === 'string' ? blobParts(p) : [p]));
  downloadBlob(fileName, new Blob(whole, { type: mimeType }));
}

/** Downloads a Blob as a file (an `<a download>` on a Blob URL: no `downloads` permission needed). */
function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // Revoking at once can cancel the download in some browsers; a minute is plenty to start it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Bytes read per step: large enough to read fast, small enough to keep the page responsive and the progress moving. */
const SLICE = 4 * 1024 * 1024;

/**
 * Reads a file as UTF-8 text slice by slice, yielding to the page between
 * slices and reporting progress (bytes read, total). A byte-order mark is
 * dropped.
 */
export async function readFileText(file: Blob, onProgress?: (loaded: number, total: number) => void): Promise<string> {
  if (file.size <= SLICE || typeof file.slice !== 'function') {
    const text = await file.text();
    onProgress?.(file.size, file.size);
    return text.replace(/^\uFEFF/, '');
  }
  const decoder = new TextDecoder('utf-8');
  const parts: string[] = [];
  for (let start = 0; start < file.size; start += SLICE) {
    const bytes = await file.slice(start, start + SLICE).arrayBuffer();
    parts.push(decoder.decode(bytes, { stream: true }));
    onProgress?.(Math.min(file.size, start + SLICE), file.size);
  }
  parts.push(decoder.decode());
  return parts.join('');
}
