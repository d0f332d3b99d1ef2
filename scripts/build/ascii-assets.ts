/**
 * Script assets rewritten in plain ASCII at build time. A script with a single character outside ASCII is decoded by
 * the browser into a two-byte string as a whole; pdf.js's worker (1.2 MB, with a few hundred such characters in its
 * string literals) then costs its worker thread about 40 ms more to decode and scan before the first page
 * (docs/pdf.md, "Opening fast"). Escaping those characters (`\uXXXX`) keeps every string's value and makes the file
 * one-byte text.
 */
import type { Plugin } from 'vite';

/**
 * The script with every character outside ASCII written as a `\uXXXX` escape (a character beyond the Basic
 * Multilingual Plane as its two surrogates). Right for characters in string, template and regular expression literals
 * and in comments, where minified code has them; not for a template read raw (`String.raw`).
 */
export function asciiSource(code: string): string {
  return code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A Vite plugin that rewrites the emitted assets whose file name matches `pattern` with {@link asciiSource}. */
export function asciiAssets(pattern: RegExp): Plugin {
  return {
    name: 'recipe-lens:ascii-assets',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== 'asset' || !pattern.test(file.fileName)) continue;
        const text = typeof file.source === 'string' ? file.source : new TextDecoder().decode(file.source);
        file.source = asciiSource(text);
      }
    },
  };
}
