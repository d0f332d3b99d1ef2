/** The import formats and the size limit, kept apart from the parsers so the message protocol can name them cheaply. */

/** The formats an import file can be in: survey JSONL, W3C Web Annotations, a Recipe Lens backup. */
export const IMPORT_FORMATS = ['jsonl', 'w3c', 'backup'] as const;
/** One import format. */
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** How an import meets the store: merged by id (newer wins), or replacing everything (restoring a backup). */
export const IMPORT_MODES = ['merge', 'replace'] as const;
/** One import mode. */
export type ImportMode = (typeof IMPORT_MODES)[number];

/** The largest file Recipe Lens imports, in bytes: the message carrying it to the background must stay under the browser's 64 MB limit. */
export const MAX_IMPORT_BYTES = 32 * 1024 * 1024;

/** The refusal of a file over the limit, in words a curator can act on. */
export function tooLargeMessage(bytes: number): string {
  const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MB`;
  return `the file is ${mb(bytes)}; the limit is ${MAX_IMPORT_BYTES / (1024 * 1024)} MB — split it into smaller files and import them one by one`;
}
