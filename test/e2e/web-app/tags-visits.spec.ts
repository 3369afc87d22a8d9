import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, expectNoSeriousViolations, makeLinks, test, type WebAppServer } from './fixtures.js';
import { sidewaysOverflow, signIn, VIEWPORTS } from './screens-fixtures.js';

// Tags and visits in the web app (SPEC "Link rules and limits", issue 55): a tag is renamed or
// deleted on all of the owner's links from the tag filter, the delete saying first how many links
// carry it; "Delete visits" in a link's details asks first and its clicks start again from 0. On
// the real server, in English and Korean, on a phone and a laptop, light and dark.

type Catalog = Record<string, { message: string }>;
const catalog = (language: string): Catalog =>
  JSON.parse(readFileSync(new URL(`../../../public/_locales/${language}/messages.json`, import.meta.url), 'utf8'));

/** A browser's User-Agent: a visit from it is a click (a bot's is not). */
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** Follows the short URL once, as a visitor's browser does (no redirect followed). */
async function visit(url: string) {
  const response = await fetch(url, { redirect: 'manual', headers: { 'User-Agent': BROWSER } });
  await response.body?.cancel();
  return { status: response.status, location: response.headers.get('location') };
}

/** Axe in the light and the dark theme, the page as it is. */
async function expectAccessibleInBothThemes(app: Page, screen: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await app.emulateMedia({ colorScheme });
    await expectNoSeriousViolations(app, `${screen}, ${colorScheme}`);
  }
}

async function makeLink(server: WebAppServer, key: string, code: string, extra: Record<string, unknown>) {
  const made = await server.api('POST', '/api/v1/shorten', {
    key,
    body: { original_url: `https://example.com/${code}`, custom_code: code, ...extra },
  });
  expect(made.status, made.body.message).toBe(201);
}

for (const locale of ['en-US', 'ko-KR'] as const) {
  const words = catalog(locale.slice(0, 2));
  /** The catalog's words, `$1`… filled in as the app fills them. */
  const w = (key: string, ...subs: string[]) =>
    (words[key]?.message ?? `(missing ${key})`).replace(/\$([1-9])/g, (_, n: string) => subs[Number(n) - 1] ?? '');

  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    test.describe(`${locale}, ${size}`, () => {
      test.use({ uiLocale: locale });

      test('a tag is renamed on every link, and deleted after saying how many links carry it', async ({
        app,
        server,
      }) => {
        await app.setViewportSize(viewport);
        const alice = await server.createKey('alice');
        await makeLink(server, alice, 'one', { tags: ['work', 'news'] });
        await makeLink(server, alice, 'two', { tags: ['work'] });
        await makeLink(server, alice, 'three', { tags: ['news'] });
        await signIn(app, alice, locale);
        const filter = app.getByRole('combobox', { name: w('tagFilterLabel'), exact: true });
        await expect(app.getByRole('button', { name: w('tagRename'), exact: true })).toBeHidden();
        await filter.selectOption('work');
        await expect(app.locator('#links-body tr[data-code]')).toHaveCount(2);

        await app.getByRole('button', { name: w('tagRename'), exact: true }).click();
        const name = app.getByRole('textbox', { name: w('tagNewName', 'work'), exact: true });
        await expect(name).toBeFocused();
        await name.fill('bad name!');
        await app.getByRole('button', { name: w('tagRenameSave'), exact: true }).click();
        await expect(app.locator('#tag-rename-error')).toHaveText(w('tagNameInvalid'));
        await name.fill('업무');
        await app.getByRole('button', { name: w('tagRenameSave'), exact: true }).click();
        await expect(app.locator('#tag-note')).toHaveText(w('tagRenamedNote', 'work', '업무'));
        await expect(filter).toHaveValue('업무');
        await expect(app.locator('#links-body tr[data-code]')).toHaveCount(2);
        await expect(app.locator('#links-body tr[data-code="two"] .tag-chip')).toHaveText(['업무']);
        const tags = (await server.api('GET', '/api/v1/tags', { key: alice })).body.data.tags as Array<{
          tag: string;
        }>;
        expect(tags.map((entry) => entry.tag).sort()).toEqual(['news', '업무']);

        // Delete says how many links carry the tag, and only the tag goes.
        await filter.selectOption('news');
        await app.getByRole('button', { name: w('tagDelete'), exact: true }).click();
        const dialog = app.getByRole('dialog', { name: w('tagDeleteTitle'), exact: true });
        await expect(dialog).toContainText(w('tagDeleteTextOther', '2', 'news'));
        await expectAccessibleInBothThemes(app, `the tag delete confirmation, ${locale} ${size}`);
        await dialog.getByRole('button', { name: w('webCancel'), exact: true }).click();
        await expect(dialog).toBeHidden();
        await expect(app.locator('#links-body tr[data-code="three"] .tag-chip')).toHaveText(['news']);
        await app.getByRole('button', { name: w('tagDelete'), exact: true }).click();
        await dialog.getByRole('button', { name: w('tagDelete'), exact: true }).click();
        await expect(app.locator('#tag-note')).toHaveText(w('tagDeletedNote', 'news'));
        await expect(filter).toHaveValue('');
        await expect(app.locator('#links-body tr[data-code]')).toHaveCount(3);
        await expect(app.locator('#links-body .tag-chip', { hasText: 'news' })).toHaveCount(0);
        await expect(filter.locator('option')).toHaveText([w('tagFilterAll'), '업무']);
        const page = await sidewaysOverflow(app);
        expect(page.scrollWidth).toBeLessThanOrEqual(page.viewport);
      });

      test("a link's visits are deleted after a confirmation, and its clicks start again from 0", async ({
        app,
        server,
      }) => {
        await app.setViewportSize(viewport);
        const alice = await server.createKey('alice');
        await makeLinks(server, alice, ['counted']);
        for (let n = 0; n < 2; n++) expect((await visit(`${server.url}/counted`)).status).toBe(302);
        await expect
          .poll(async () => (await server.api('GET', '/api/v1/links/counted', { key: alice })).body.data.clicks)
          .toBe(2);
        await signIn(app, alice, locale);
        await app.locator('#links-body tr[data-code="counted"] [data-action="details"]').click();
        const details = app.locator('.details-row:not([hidden])');
        await details.getByRole('button', { name: w('visitsDelete'), exact: true }).click();
        const dialog = app.getByRole('dialog', { name: w('visitsDeleteTitle'), exact: true });
        await expect(dialog).toContainText(w('visitsDeleteText', `${server.url}/counted/`));
        await expectAccessibleInBothThemes(app, `the visits delete confirmation, ${locale} ${size}`);
        await dialog.getByRole('button', { name: w('visitsDelete'), exact: true }).click();
        const row = app.locator('#links-body tr[data-code="counted"]');
        await expect(row.locator('.row-note.done')).toHaveText(w('visitsDeletedNote'));
        await expect(row.locator('td.clicks-cell')).toContainText('0');
        const read = await server.api('GET', '/api/v1/links/counted', { key: alice });
        expect(read.body.data.clicks).toBe(0);
      });
    });
  }
}
