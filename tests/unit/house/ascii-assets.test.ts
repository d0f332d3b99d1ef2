import { describe, expect, it } from 'vitest';
import { asciiAssets, asciiSource } from '../../../scripts/build/ascii-assets';

/** Evaluates a small module body's `value` export the way a script would read it. */
const valueOf = (code: string): unknown => new Function(`${code}; return value;`)();

type Bundle = Record<string, { type: 'asset' | 'chunk'; fileName: string; source?: string | Uint8Array; code?: string }>;

/** Runs the plugin's generateBundle over a bundle, as Rollup would. */
function generate(pattern: RegExp, bundle: Bundle): Bundle {
  const plugin = asciiAssets(pattern);
  const hook = plugin.generateBundle as unknown as (options: unknown, bundle: Bundle) => void;
  hook.call({}, {}, bundle);
  return bundle;
}

describe('asciiSource', () => {
  it('leaves plain ASCII as it is', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the code under test holds a template literal
    const code = 'const value = "abc" + `d${1}e` + /x+/.source; // note';
    expect(asciiSource(code)).toBe(code);
  });

  it('writes every other character as an escape, keeping the values of string, template and regex literals', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the code under test holds a template literal
    const code = 'const value = ["þÿ", \'¿¬Ìå\', `Trinité ${1 + 1}`, /[ï»¿]+/.test("»»"), "😀".length, "\\u00e9é"];';
    const out = asciiSource(code);
    expect(out).toMatch(/^[\x00-\x7f]*$/);
    expect(out).toContain('\\u00fe\\u00ff');
    // A character beyond the Basic Multilingual Plane becomes its two surrogates.
    expect(out).toContain('\\ud83d\\ude00');
    expect(valueOf(out)).toEqual(valueOf(code));
  });

  it('keeps the characters of a comment readable as escapes', () => {
    expect(asciiSource('/* façade */ const value = 1;')).toBe('/* fa\\u00e7ade */ const value = 1;');
  });
});

describe('asciiAssets', () => {
  it('rewrites the matching assets only, whether their source is text or bytes', () => {
    const bundle = generate(/pdf\.worker[^/]*\.mjs$/, {
      worker: { type: 'asset', fileName: 'assets/pdf.worker.min-abc.mjs', source: new TextEncoder().encode('const value = "þÿ";') },
      text: { type: 'asset', fileName: 'assets/pdf.worker.min-def.mjs', source: 'const value = "é";' },
      other: { type: 'asset', fileName: 'assets/viewer.css', source: '.a::before { content: "é"; }' },
      chunk: { type: 'chunk', fileName: 'chunks/pdf.worker-like.mjs', code: 'const value = "é";' },
    });
    expect(bundle.worker!.source).toBe('const value = "\\u00fe\\u00ff";');
    expect(bundle.text!.source).toBe('const value = "\\u00e9";');
    expect(bundle.other!.source).toBe('.a::before { content: "é"; }');
    expect(bundle.chunk!.code).toBe('const value = "é";');
  });

  it('runs in builds only', () => {
    expect(asciiAssets(/x/).apply).toBe('build');
  });
});
