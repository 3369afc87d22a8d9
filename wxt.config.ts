import { defineConfig } from 'wxt';

// The extension is built from entrypoints/ and public/; see README.md, "The extension".
export default defineConfig({
  modules: [],
  manifest: {
    name: 'Linklet',
    description: 'Shorten the current tab or any link in one click.',
    permissions: [],
  },
});
