import { readFileSync } from 'node:fs';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../../core/passwords/password-hasher.js';
import { PASSWORD_PAGE_WORDS } from '../../../core/passwords/password-page-words.js';
import { expect, expectNoSeriousViolations, makeLinks, test } from './fixtures.js';
import { API_WORDS, sidewaysOverflow, signIn, VIEWPORTS } from './screens-fixtures.js';

// A password on a link, as its owner sets it in the web app and a visitor meets it: the details'
// password field protects the link, the list shows the lock, the short URL asks for the password
// in the browser (a wrong one is refused, the right one leads on), and removing it opens the link
// to anyone again. On the real server and in real Chromium.

type Catalog = Record<string, { message: string }>;
const catalog = (language: string): Catalog =>
  JSON.parse(readFileSync(new URL(`../../../public/_locales/${language}/messages.json`, import.meta.url), 'utf8'));

const PASSWORD = '열려라 참깨 1234';

for (const locale of ['en-US', 'ko-KR'] as const) {
  const language = locale.slice(0, 2) as 'en' | 'ko';
  const words = catalog(language);
  const w = (key: string) => words[key]?.message ?? `(missing ${key})`;
  const pageWords = PASSWORD_PAGE_WORDS[language];
  test.describe(locale, () => {
    test.use({ uiLocale: locale });
    test("a refused password change is said in the page's words, not the server's English", async ({ app, server }) => {
      const alice = await server.createKey('alice');
      await makeLinks(server, alice, ['vanishing']);
      await signIn(app, alice, locale);
      await app.locator('#links-body tr[data-code="vanishing"] [data-action="details"]').click();
      const details = app.locator('.details-row:not([hidden])');
      // Deleted elsewhere (another tab, the extension) while its details are open.
      expect((await server.api('DELETE', '/api/v1/links/vanishing', { key: alice })).status).toBe(200);
      await details.getByLabel(w('webNewPassword'), { exact: true }).fill(PASSWORD);
      await details.getByRole('button', { name: w('webSetPassword'), exact: true }).click();
      await expect(details.locator('form.edit-password [role="alert"]')).toHaveText(w('errNotFound'));
      await expect(details.locator('form.edit-password')).not.toContainText('There is no link');
    });

    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      test(`${size}: a password set in the web app locks the short URL until it is removed`, async ({
        app,
        server,
      }) => {
        await app.setViewportSize(viewport);
        const alice = await server.createKey('alice');
        await makeLinks(server, alice, ['guarded', 'open']);
        await signIn(app, alice, locale);
        const guarded = app.locator('#links-body tr[data-code="guarded"]');
        const lock = guarded.locator('.badge.lock');
        await expect(lock).toHaveCount(0);
        await guarded.locator('[data-action="details"]').click();
        const details = app.locator('.details-row:not([hidden])');
        const field = details.getByLabel(w('webNewPassword'), { exact: true });
        await expect(field).toHaveAttribute('type', 'password');
        const setButton = details.getByRole('button', { name: w('webSetPassword'), exact: true });

        // Too short: said next to the field in people's words, and nothing is sent.
        await field.fill('abc');
        await setButton.click();
        await expect(details.locator('form.edit-password [role="alert"]')).toHaveText(
          w('errorPasswordLength')
            .replace('$1', String(MIN_PASSWORD_LENGTH))
            .replace('$2', String(MAX_PASSWORD_LENGTH)),
        );
        await expect(field).toHaveAttribute('aria-invalid', 'true');
        expect((await server.resolve(`${server.url}/guarded`)).status).toBe(302);

        await field.fill(PASSWORD);
        await setButton.click();
        // Said next to the link (the list reloads with the lock): what changed, not "leads to a new address".
        await expect(guarded.locator('.row-note.done')).toHaveText(w('webPasswordSet'));
        // The list shows the lock on that link only, whole on the screen at this size.
        // The padlock is an image (an emoji is an empty box without an emoji font), hidden from screen readers.
        await expect(lock).toHaveText(w('webPasswordBadge'));
        await expect(lock.locator('svg.lock-icon')).toBeVisible();
        await expect(lock.locator('svg.lock-icon')).toHaveAttribute('aria-hidden', 'true');
        await expect(lock).toHaveAttribute('title', w('webPasswordProtected'));
        await expect(app.locator('#links-body tr[data-code="open"] .badge.lock')).toHaveCount(0);
        await expect(lock).toBeInViewport();
        const box = await lock.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= viewport.width).toBe(true);
        const layout = await sidewaysOverflow(app);
        expect(layout.scrollWidth).toBeLessThanOrEqual(layout.viewport);
        await expect(app.locator('main')).not.toContainText(API_WORDS);
        await expect(app.locator('main')).not.toContainText('password_protected');
        await expectNoSeriousViolations(app, `a protected link, ${locale} ${size}`);

        // A visitor in the same browser opens the short URL.
        const visitor = await app.context().newPage();
        const asked = await visitor.goto(`${server.url}/guarded`);
        expect(asked?.status()).toBe(200);
        await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(pageWords.heading);
        await expect(visitor.locator('main')).not.toContainText('example.com');
        await visitor.getByLabel(pageWords.label, { exact: true }).fill('not the password');
        const [wrong] = await Promise.all([
          visitor.waitForResponse((response) => response.request().method() === 'POST'),
          visitor.getByRole('button', { name: pageWords.submit }).click(),
        ]);
        expect(wrong.status()).toBe(401);
        await expect(visitor.getByRole('alert')).toHaveText(pageWords.problems.wrong(0));
        await visitor.getByLabel(pageWords.label, { exact: true }).fill(PASSWORD);
        // The test has no network: the browser asking for the link's address is the redirect followed.
        const [arrival] = await Promise.all([
          visitor.waitForRequest((request) => request.url() === 'https://example.com/guarded'),
          visitor.getByRole('button', { name: pageWords.submit }).click(),
        ]);
        expect(arrival.isNavigationRequest()).toBe(true);
        await visitor.close();

        // Removing the password takes the lock away, in the list and at the short URL.
        await guarded.locator('[data-action="details"]').click();
        const reopened = app.locator('.details-row:not([hidden])');
        await expect(reopened.getByLabel(w('webNewPassword'), { exact: true })).toHaveValue('');
        await reopened.getByRole('button', { name: w('webRemovePassword'), exact: true }).click();
        await expect(guarded.locator('.row-note.done')).toHaveText(w('webPasswordRemoved'));
        await expect(lock).toHaveCount(0);
        await guarded.locator('[data-action="details"]').click();
        await expect(
          app.locator('.details-row:not([hidden])').getByRole('button', { name: w('webRemovePassword'), exact: true }),
        ).toBeHidden();
        const opened = await server.resolve(`${server.url}/guarded`);
        expect(opened).toEqual({ status: 302, location: 'https://example.com/guarded' });
      });
    }
  });
}
