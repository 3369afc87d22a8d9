import { resolve } from 'node:path';
import { expect, makeLinks, signInWith, test } from './web-app-fixtures.js';

// `npm run screenshots`, not `npm test`: the README's pictures of the web app, light and dark,
// signed in with a few links, one just shortened and one with its details open.

for (const theme of ['light', 'dark'] as const) {
  test.describe(theme, () => {
    test.use({ theme });

    test(`docs/web-app-${theme}.png: the web app signed in`, async ({ app, server }) => {
      await app.setViewportSize({ width: 1100, height: 1200 });
      const alice = await server.createKey('alice');
      await makeLinks(server, alice, ['guide', 'release-notes', '한글']);
      // A few clicks for the chart (counted in batches, written within a second).
      for (let click = 0; click < 3; click++) await server.resolve(`${server.url}/guide/`);
      await app.waitForTimeout(1500);
      await signInWith(app, alice, 'alice');
      await app.getByLabel('Long URL').fill('https://example.com/blog/2026/a-long-article-about-short-links');
      await app.getByLabel('Custom code').fill('blog');
      await app.getByRole('button', { name: 'Shorten' }).click();
      await expect(app.getByRole('textbox', { name: 'Short URL' })).toHaveValue(`${server.url}/blog/`);
      const row = app.getByRole('row').filter({ has: app.getByRole('rowheader', { name: `${server.url}/guide/` }) });
      await row.getByRole('button', { name: 'Details' }).click();
      await expect(app.locator('.details-row:not([hidden]) .clicks')).not.toHaveText('Loading…');
      await app.getByRole('heading', { name: 'Linklet' }).hover(); // no hover state in the picture
      await app.screenshot({ path: resolve(`docs/web-app-${theme}.png`), fullPage: true });
    });
  });
}
