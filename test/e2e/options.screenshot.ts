import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { launchExtension } from './launch-extension.js';

// `npm run screenshots`, not `npm test`: the extension's options page as it first opens, in
// English and the light theme at a desktop size (the popup's pictures are Korean and dark).

test('docs/options.png: the options page', async () => {
  const ext = await launchExtension({ lang: 'en' });
  try {
    const page = await ext.context.newPage();
    await page.setViewportSize({ width: 900, height: 700 });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${ext.origin}/options.html`);
    await expect(page.locator('h1')).not.toBeEmpty();
    await page.screenshot({ path: resolve('docs/options.png') });
  } finally {
    await ext.close();
  }
});
