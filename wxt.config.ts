import { defineConfig } from 'wxt';
import preact from '@preact/preset-vite';

// See https://wxt.dev/api/config.html
export default defineConfig({
  modules: ['@wxt-dev/webextension-polyfill'],
  // The sources zip for Firefox review: the project without generated or local output.
  zip: { excludeSources: ['test-results/**', 'bench/results/**', 'demo/**', '.output/**', '.wxt/**'] },
  vite: () => ({
    plugins: [preact()],
  }),
  // Firefox builds (npm run build:firefox) get a sidebar and an event page instead of Chrome's side panel and worker.
  manifestVersion: 3,
  manifest: ({ browser }) => ({
    name: 'Recipe Lens',
    description:
      'Tag passages on AI labs’ pages as evidence about how frontier models are post-trained with RL.',
    permissions: ['unlimitedStorage', 'contextMenus', 'tabs', ...(browser === 'firefox' ? [] : ['sidePanel'])],
    ...(browser === 'firefox'
      ? { browser_specific_settings: { gecko: { id: 'recipe-lens@recipe-lens.dev', strict_min_version: '142.0', data_collection_permissions: { required: ['none'] } } } }
      : {}),
    action: { default_title: 'Recipe Lens' },
    commands: {
      'tag-selection': {
        suggested_key: { default: 'Alt+Shift+C' },
        description: 'Tag the selected passage as a claim',
      },
      'open-panel': {
        suggested_key: { default: 'Alt+Shift+E' },
        description: 'Open the evidence panel',
      },
    },
  }),
});
