import { defineConfig } from 'wxt';
import preact from '@preact/preset-vite';

// See https://wxt.dev/api/config.html
export default defineConfig({
  modules: ['@wxt-dev/webextension-polyfill'],
  vite: () => ({
    plugins: [preact()],
  }),
  manifest: {
    name: 'Recipe Lens',
    description:
      'Tag passages on AI labs’ pages as evidence about how frontier models are post-trained with RL.',
    permissions: ['unlimitedStorage', 'contextMenus', 'tabs', 'sidePanel'],
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
  },
});
