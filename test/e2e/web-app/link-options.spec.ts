import { readFileSync } from 'node:fs';
import { expect, expectNoSeriousViolations, makeLinks, test } from './fixtures.js';
import { API_WORDS, sidewaysOverflow, signIn, VIEWPORTS } from './screens-fixtures.js';

// Link options in the web app: a link's title and tags are
// edited in its details and shown in the list, a tag narrows the list, and an expired link offers
// Renew (not Disable) and comes back active. On the real server, with the link expired in its
// database rather than waited for.

type Catalog = Record<string, { message: string }>;
const catalog = (language: string): Catalog =>
  JSON.parse(readFileSync(new URL(`../../../public/_locales/${language}/messages.json`, import.meta.url), 'utf8'));

for (const locale of ['en-US', 'ko-KR'] as const) {
  const words = catalog(locale.slice(0, 2));
  const w = (key: string) => words[key]?.message ?? `(missing ${key})`;
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    test.describe(`${locale}, ${size}`, () => {
      test.use({ uiLocale: locale });

      test('title and tags are edited in the details, shown in the list and narrow it', async ({ app, server }) => {
        await app.setViewportSize(viewport);
        const alice = await server.createKey('alice');
        await makeLinks(server, alice, ['alpha', 'beta']);
        await signIn(app, alice, locale);
        const alpha = app.locator('#links-body tr[data-code="alpha"]');
        await alpha.locator('[data-action="details"]').click();
        const details = app.locator('.details-row:not([hidden])');
        await details
          .getByRole('textbox', { name: w('linkTitleLabel'), exact: true })
          .fill('봄 소풍 안내 — spring picnic');
        await details.getByRole('textbox', { name: w('linkTagsLabel'), exact: true }).fill('work, 소풍 news');
        await details
          .locator('form.edit-labels')
          .getByRole('button', { name: w('linkLabelsSave'), exact: true })
          .click();
        await expect(alpha.locator('.row-note.done')).toHaveText(w('linkLabelsSavedNote'));
        await expect(alpha.locator('.link-title')).toHaveText('봄 소풍 안내 — spring picnic');
        await expect(alpha.locator('.tag-chip')).toHaveText(['work', '소풍', 'news']);
        // The API keeps them: another client reads the same title and tags.
        const read = await server.api('GET', '/api/v1/links/alpha', { key: alice });
        expect(read.body.data.title).toBe('봄 소풍 안내 — spring picnic');
        expect(read.body.data.tags).toEqual(['work', '소풍', 'news']);

        // The tag filter lists the owner's tags and narrows the list to one.
        const filter = app.getByRole('combobox', { name: w('tagFilterLabel'), exact: true });
        await expect(filter.locator('option')).toHaveCount(4);
        await expect(filter.locator('option').first()).toHaveText(w('tagFilterAll'));
        expect((await filter.locator('option').allTextContents()).sort()).toEqual(
          [w('tagFilterAll'), 'news', 'work', '소풍'].sort(),
        );
        await filter.selectOption('work');
        await expect(app.locator('#links-body tr[data-code]')).toHaveCount(1);
        await expect(app.locator('#links-body tr[data-code]')).toHaveAttribute('data-code', 'alpha');
        await filter.selectOption('');
        await expect(app.locator('#links-body tr[data-code]')).toHaveCount(2);
        // Pressing a chip does the same.
        await alpha.getByRole('button', { name: '소풍', exact: true }).click();
        await expect(app.locator('#links-body tr[data-code]')).toHaveCount(1);
        await expect(filter).toHaveValue('소풍');

        const page = await sidewaysOverflow(app);
        expect(page.scrollWidth).toBeLessThanOrEqual(page.viewport);
        await expect(app.locator('main')).not.toContainText(API_WORDS);
        await expectNoSeriousViolations(app, `titles and tags, ${locale} ${size}`);
      });

      test('an expired link says Expired and offers Renew, not Disable; renewing makes it active', async ({
        app,
        server,
      }) => {
        await app.setViewportSize(viewport);
        const alice = await server.createKey('alice');
        await makeLinks(server, alice, ['old', 'fresh']);
        server.expire('old');
        expect((await server.resolve(`${server.url}/old`)).status).toBe(410);
        await signIn(app, alice, locale);
        const old = app.locator('#links-body tr[data-code="old"]');
        await expect(old.locator('.badge[data-status]')).toHaveText(w('webStatusExpired'));
        await expect(old.locator('[data-action="disable"]')).toHaveCount(0);
        await expect(app.locator('#links-body tr[data-code="fresh"] [data-action="disable"]')).toBeVisible();
        await old.getByRole('button', { name: w('renewButton'), exact: true }).click();
        const duration = app.locator('.details-row:not([hidden])').getByLabel(w('renewLabel'), { exact: true });
        await expect(duration).toBeFocused();
        await expect(duration.locator('option')).toHaveText(
          ['expire24h', 'expire48h', 'expire1week', 'expire1month'].map(w),
        );
        await expectNoSeriousViolations(app, `renewing, ${locale} ${size}`);
        await duration.selectOption('1month');
        await app
          .locator('.details-row:not([hidden]) form.renew')
          .getByRole('button', { name: w('renewButton'), exact: true })
          .click();
        await expect(old.locator('.row-note.done')).toContainText(w('renewedNote').split('$1')[0] as string);
        await expect(old.locator('.badge[data-status]')).toHaveText(w('webStatusActive'));
        await expect(old.locator('[data-action="disable"]')).toBeVisible();
        expect((await server.resolve(`${server.url}/old`)).location).toBe('https://example.com/old');
        const page = await sidewaysOverflow(app);
        expect(page.scrollWidth).toBeLessThanOrEqual(page.viewport);
      });
    });
  }
}
