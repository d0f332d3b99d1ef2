import { defineConfig } from 'wxt';
import preact from '@preact/preset-vite';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { asciiAssets } from './scripts/build/ascii-assets';
import { firstPaintChunk } from './scripts/build/first-paint-chunk';

/** pdf.js's character maps and standard fonts, copied into the build for the PDF viewer (never fetched from the network). */
function pdfjsDataFiles(): Array<{ absoluteSrc: string; relativeDest: string }> {
  const root = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  return ['cmaps', 'standard_fonts'].flatMap((dir) =>
    readdirSync(path.join(root, dir)).map((name) => ({ absoluteSrc: path.join(root, dir, name), relativeDest: `pdfjs/${dir}/${name}` })),
  );
}

/** The small scripts of a page (entrypoints/claims.content, entrypoints/paint.content), built without the polyfill. */
const LEAN_SCRIPTS = new Set(['claims', 'paint']);

// See https://wxt.dev/api/config.html
export default defineConfig({
  modules: ['@wxt-dev/webextension-polyfill'],
  // RECIPE_LENS_OUT lets a second build (another worktree, a parallel test run) use its own output folder.
  outDir: process.env.RECIPE_LENS_OUT ?? '.output',
  // The sources zip for Firefox review: the project without generated or local output.
  zip: { excludeSources: ['test-results/**', 'bench/results/**', 'demo/**', '.output/**', '.wxt/**'] },
  hooks: {
    'build:publicAssets': (_wxt, files) => {
      files.push(...pdfjsDataFiles());
    },
    // The page script's highlights-root.css styles highlights through Chromium's highlight inheritance; Firefox has
    // none, so its build drops that sheet and gets per-element rules inserted with the painting script instead.
    'build:manifestGenerated': (wxt, manifest) => {
      if (wxt.config.browser !== 'firefox') return;
      for (const script of manifest.content_scripts ?? []) {
        script.css = script.css?.filter((file) => !file.endsWith('claims.css'));
        if (!script.css?.length) delete script.css;
      }
    },
    'vite:build:extendConfig': (entrypoints, config) => {
      // The extension's pages: what the evidence panel needs at its first paint is one chunk (first-paint-chunk.ts).
      if (entrypoints.some((entry) => entry.name === 'sidepanel')) {
        const build = (config.build ??= {});
        const rolldown = (build.rolldownOptions ??= {});
        const codeSplitting = firstPaintChunk(path.resolve('entrypoints/sidepanel/main.tsx'), 'panel-common');
        rolldown.output = Array.isArray(rolldown.output) ? rolldown.output.map((o) => ({ ...o, codeSplitting })) : { ...rolldown.output, codeSplitting };
      }
      // The page script that runs on every page, and the painting script of a page with claims, use the browser's own
      // API, without the webextension polyfill the other contexts get: a lookup and a badge need no promise wrappers,
      // and every page would pay to evaluate them.
      if (!entrypoints.some((entry) => LEAN_SCRIPTS.has(entry.name))) return;
      const alias = config.resolve?.alias;
      const list = Array.isArray(alias) ? alias : Object.entries(alias ?? {}).map(([find, replacement]) => ({ find, replacement: String(replacement) }));
      config.resolve = { ...config.resolve, alias: [{ find: /^wxt\/browser$/, replacement: '@wxt-dev/browser' }, ...list] };
    },
  },
  vite: () => ({
    // pdf.js's worker is emitted in plain ASCII: its thread decodes and scans it as one-byte text (scripts/build/ascii-assets.ts).
    plugins: [preact(), asciiAssets(/engine\.worker[^/]*\.m?js$/)],
    worker: { format: 'es' as const },
  }),
  // Firefox builds (npm run build:firefox) get a sidebar and an event page instead of Chrome's side panel and worker.
  manifestVersion: 3,
  manifest: ({ browser }) => ({
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    default_locale: 'en',
    permissions: [
      'unlimitedStorage',
      'contextMenus',
      'tabs',
      'webRequest',
      'scripting',
      'alarms',
      'storage',
      ...(browser === 'firefox' ? [] : ['sidePanel', 'offscreen']),
    ],
    // The PDF viewer fetches the PDFs a curator opens (any site, or a local file when the browser allows it).
    host_permissions: ['http://*/*', 'https://*/*', 'file:///*'],
    // A dataset's git host: asked for that origin only when the curator connects one (docs/dataset.md).
    optional_host_permissions: ['https://*/*', 'http://127.0.0.1/*', 'http://localhost/*'],
    ...(browser === 'firefox'
      ? {
          // Firefox 140 (the ESR Debian ships) is the first desktop release with the CSS Custom Highlight API and
          // `data_collection_permissions`; Firefox for Android has the latter from 142. See docs/firefox.md.
          // Firefox's default policy for extension pages adds `upgrade-insecure-requests`, which turns the viewer's
          // download of an http:// PDF into an https:// one that fails; Chromium lets it through. Scripts stay the
          // extension's own, as in the default (docs/firefox.md).
          content_security_policy: { extension_pages: "script-src 'self'; object-src 'self'" },
          browser_specific_settings: {
            gecko: { id: 'recipe-lens@recipe-lens.dev', strict_min_version: '140.0', data_collection_permissions: { required: ['none'] } },
            gecko_android: { strict_min_version: '142.0' },
          },
        }
      : // Highlight inheritance (the page script's highlights-root.css) is Chromium's from version 134.
        { minimum_chrome_version: '134' }),
    // The capture UI's frames on web pages (components/capture/frame-host.ts): the one page a web page may embed.
    web_accessible_resources: [{ resources: ['capture-ui.html'], matches: ['http://*/*', 'https://*/*'] }],
    action: { default_title: 'Recipe Lens' },
    commands: {
      'tag-selection': {
        suggested_key: { default: 'Alt+Shift+C' },
        description: '__MSG_cmdTagSelection__',
      },
      'open-panel': {
        suggested_key: { default: 'Alt+Shift+E' },
        description: '__MSG_cmdOpenPanel__',
      },
      'find-claims': {
        suggested_key: { default: 'Alt+Shift+F' },
        description: '__MSG_cmdFindClaims__',
      },
    },
  }),
});
