// The lean paths that keep zod and the polyfill off a page's first paint give the same answers as the schemas they
// stand in for, and the modules they keep out stay out: the side panel's first rows load no zod, and the page script
// that runs on every page loads neither zod nor the promise polyfill.
import path from 'node:path';
import * as esbuild from 'esbuild';
import { describe, expect, it } from 'vitest';
import { ChangeNotice, isChangeNotice, NOTICE_CHANNEL } from '../../../lib/messages';
import * as constants from '../../../lib/schema/constants';
import { ClaimKind, Evidence, SourceKind, Stage } from '../../../lib/schema';
import * as schema from '../../../lib/schema';

const ROOT = path.resolve(__dirname, '../../..');

/** The packages and files a bundle of `entry` holds, its dynamic imports left out (they load later). */
async function staticInputs(entry: string, external: string[] = []): Promise<string[]> {
  const out = await esbuild.build({
    entryPoints: [path.join(ROOT, entry)],
    absWorkingDir: ROOT,
    bundle: true,
    splitting: true,
    format: 'esm',
    outdir: path.join(ROOT, '.lean-paths-out'),
    write: false,
    metafile: true,
    logLevel: 'silent',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    loader: { '.css': 'empty', '.json': 'json' },
    // Vite's worker-URL imports name a file of the build, not a module: nothing of them is on the path.
    external: [...external, '*?worker&url'],
    define: { 'import.meta.env.BROWSER': '"chrome"' },
  });
  const main = Object.values(out.metafile.outputs).find((o) => o.entryPoint?.endsWith(entry));
  const inputs = new Set(Object.keys(main!.inputs));
  // The chunks the entry imports statically are on its path too.
  for (const imported of main!.imports)
    if (imported.kind === 'import-statement') for (const k of Object.keys(out.metafile.outputs[imported.path]?.inputs ?? {})) inputs.add(k);
  return [...inputs];
}

describe('lean paths agree with the schemas', () => {
  it('isChangeNotice accepts exactly what the ChangeNotice schema accepts', () => {
    const messages: unknown[] = [
      { channel: NOTICE_CHANNEL, type: 'claims.changed', url: null },
      { channel: NOTICE_CHANNEL, type: 'claims.changed', url: 'https://example.com/a?b#c' },
      { channel: NOTICE_CHANNEL, type: 'claims.changed', url: 'http://example.com/' },
      { channel: NOTICE_CHANNEL, type: 'claims.changed', url: 'ftp://example.com/' },
      { channel: NOTICE_CHANNEL, type: 'claims.changed', url: 'not a url' },
      { channel: NOTICE_CHANNEL, type: 'claims.changed', url: '' },
      { channel: NOTICE_CHANNEL, type: 'claims.changed' },
      { channel: NOTICE_CHANNEL, type: 'claims.changed', url: 42 },
      { channel: NOTICE_CHANNEL, type: 'claims.changed', url: null, extra: true },
      { channel: NOTICE_CHANNEL, type: 'claims.saved', url: null },
      { channel: 'recipe-lens', type: 'claims.changed', url: null },
      { type: 'claims.changed', url: null },
      null,
      undefined,
      'claims.changed',
      [NOTICE_CHANNEL, 'claims.changed', null],
    ];
    for (const message of messages) expect(isChangeNotice(message), JSON.stringify(message)).toBe(ChangeNotice.safeParse(message).success);
  });

  it('the zod-free record constants are the schemas’ own', () => {
    expect(ClaimKind.options).toEqual([...constants.CLAIM_KINDS]);
    expect(Stage.options).toEqual([...constants.STAGES]);
    expect(Evidence.options).toEqual([...constants.EVIDENCE_LEVELS]);
    expect(SourceKind.options).toEqual([...constants.SOURCE_KINDS]);
    expect(schema.CLAIM_SCHEMA).toBe(constants.CLAIM_SCHEMA);
    expect(schema.MODEL_SCHEMA).toBe(constants.MODEL_SCHEMA);
    expect(schema.modelKey('M', 'r')).toBe(constants.modelKey('M', 'r'));
    expect(constants.modelKey('M', null)).toBe('M');
  });
});

describe('what stays off the first paint', () => {
  it('the side panel draws its first rows without loading zod (the export code, which needs it, loads later)', async () => {
    const inputs = await staticInputs('entrypoints/sidepanel/main.tsx', ['wxt/browser']);
    expect(inputs.some((f) => f.includes('components/panel/SurveyView.tsx'))).toBe(true);
    expect(inputs.filter((f) => f.includes('node_modules/zod/') || f === 'lib/schema/index.ts')).toEqual([]);
  });

  it('the side panel’s first script, which asks for the first rows before the modules load, holds the channel’s tag and nothing more', async () => {
    const inputs = await staticInputs('entrypoints/panel-first/index.ts', ['wxt/utils/*']);
    expect(inputs.sort()).toEqual(['entrypoints/panel-first/index.ts', 'entrypoints/shared/early-call.ts', 'lib/messages/channel.ts']);
  });

  it('the page script on every page loads no zod, and its build gets the browser’s own API instead of the polyfill', async () => {
    const inputs = await staticInputs('entrypoints/claims.content/boot.ts', ['wxt/browser', 'wxt/utils/*']);
    expect(inputs.filter((f) => f.includes('node_modules/zod/'))).toEqual([]);
    const { default: config } = await import('../../../wxt.config');
    const extend = (config.hooks as Record<string, unknown>)['vite:build:extendConfig'] as (entrypoints: Array<{ name: string }>, config: object) => void;
    const pageScript: { resolve: { alias: Array<{ find: string | RegExp; replacement: string }> } } = {
      resolve: { alias: [{ find: 'wxt/browser', replacement: '@wxt-dev/webextension-polyfill/browser' }] },
    };
    extend([{ name: 'claims' }], pageScript);
    const first = pageScript.resolve.alias[0]!;
    expect(first.find instanceof RegExp && first.find.test('wxt/browser') && first.replacement).toBe('@wxt-dev/browser');
    const other = { resolve: { alias: { 'wxt/browser': '@wxt-dev/webextension-polyfill/browser' } } };
    extend([{ name: 'capture' }], other);
    expect(other.resolve.alias).toEqual({ 'wxt/browser': '@wxt-dev/webextension-polyfill/browser' });
  });

  it('the painting script of a page with claims loads no zod, no Preact, no UI and no source detector; its build has no polyfill', async () => {
    const inputs = await staticInputs('entrypoints/paint.content/index.ts', ['wxt/browser', 'wxt/utils/*']);
    expect(inputs).toContain('components/capture/paint-session.ts');
    expect(inputs).toContain('lib/anchoring/async.ts');
    const heavy = inputs.filter(
      (f) =>
        f.includes('node_modules/zod/') ||
        f.includes('node_modules/preact') ||
        f === 'lib/schema/index.ts' ||
        f.endsWith('.tsx') ||
        f === 'components/capture/controller.ts' ||
        f.startsWith('lib/source/detect') ||
        f.startsWith('lib/finder/'),
    );
    expect(heavy).toEqual([]);
    const { default: config } = await import('../../../wxt.config');
    const extend = (config.hooks as Record<string, unknown>)['vite:build:extendConfig'] as (entrypoints: Array<{ name: string }>, config: object) => void;
    const paintScript: { resolve: { alias: Array<{ find: string | RegExp; replacement: string }> } } = { resolve: { alias: [] } };
    extend([{ name: 'paint' }], paintScript);
    expect(paintScript.resolve.alias[0]?.replacement).toBe('@wxt-dev/browser');
  });
});
