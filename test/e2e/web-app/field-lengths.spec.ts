import { readFileSync } from 'node:fs';
import type { Page, Request } from '@playwright/test';
import { PASSWORD_PAGE_WORDS } from '../../../core/passwords/password-page-words.js';
import { expect, expectNoSeriousViolations, makeLinks, test } from './fixtures.js';
import { API_WORDS, signIn } from './screens-fixtures.js';

// Lengths as the server counts them (code points; a code after NFC), typed into the real web app
// in real Chromium. The fields used to carry maxlength, which counts UTF-16 units: Chromium then
// cut a title of 150 emoji at 100, an emoji password at 64 and a code pasted as decomposed Hangul,
// all valid. Playwright's fill() types through the browser's input pipeline (CDP insertText),
// which maxlength limits, so a field that still cut would show here.

type Catalog = Record<string, { message: string }>;
const catalog = (language: string): Catalog =>
  JSON.parse(readFileSync(new URL(`../../../public/_locales/${language}/messages.json`, import.meta.url), 'utf8'));

const EMOJI = '😀';
// Each with a final consonant, so three conjoining jamo (three UTF-16 units) once decomposed.
const SYLLABLES = '한글강산합격땅콩';
/** A code of `count` Hangul syllables, composed (NFC, as the server keeps it). */
const hangulCode = (count: number) => Array.from({ length: count }, (_, i) => SYLLABLES[i % SYLLABLES.length]).join('');

/** Every request the page sends to the API with `method`, from now on. */
function apiRequests(page: Page, method: string): Request[] {
  const sent: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === method && new URL(request.url()).pathname.startsWith('/api/')) sent.push(request);
  });
  return sent;
}

for (const locale of ['en-US', 'ko-KR'] as const) {
  const language = locale.slice(0, 2) as 'en' | 'ko';
  const words = catalog(language);
  /** A catalog message with its `$1`… filled, as the page fills them. */
  const w = (key: string, ...substitutions: Array<string | number>) =>
    (words[key]?.message ?? `(missing ${key})`).replace(/\$([1-9])/g, (_, n) => String(substitutions[Number(n) - 1]));
  const labels = {
    customCode: w('webCustomCode'),
    longUrl: w('webLongUrl'),
    shorten: w('shorten'),
    password: w('webPassword'),
  };

  test.describe(locale, () => {
    test.use({ uiLocale: locale });

    test('a title of 150 emoji is typed whole, saved and shown whole; 201 emoji is refused beside the field, nothing sent', async ({
      app,
      server,
    }) => {
      const alice = await server.createKey('alice');
      await makeLinks(server, alice, ['emoji']);
      await signIn(app, alice, locale);
      const row = app.locator('#links-body tr[data-code="emoji"]');
      await row.locator('[data-action="details"]').click();
      const details = app.locator('.details-row:not([hidden])');
      const title = details.getByRole('textbox', { name: w('linkTitleLabel'), exact: true });
      const save = details.locator('form.edit-labels').getByRole('button', { name: w('linkLabelsSave'), exact: true });

      const whole = EMOJI.repeat(150); // 150 characters, 300 UTF-16 units
      await title.fill(whole);
      await expect(title).toHaveValue(whole);
      await save.click();
      await expect(row.locator('.row-note.done')).toHaveText(w('linkLabelsSavedNote'));
      await expect(row.locator('.link-title')).toHaveText(whole);
      expect((await server.api('GET', '/api/v1/links/emoji', { key: alice })).body.data.title).toBe(whole);

      // Too long: said beside the field in the page's words, the field marked invalid, nothing sent.
      await row.locator('[data-action="details"]').click();
      const reopened = app.locator('.details-row:not([hidden])');
      const again = reopened.getByRole('textbox', { name: w('linkTitleLabel'), exact: true });
      await expect(again).toHaveValue(whole);
      const patches = apiRequests(app, 'PATCH');
      await again.fill(EMOJI.repeat(201));
      await expect(again).toHaveValue(EMOJI.repeat(201));
      await reopened
        .locator('form.edit-labels')
        .getByRole('button', { name: w('linkLabelsSave'), exact: true })
        .click();
      const error = reopened.locator('form.edit-labels [role="alert"]');
      await expect(error).toHaveText(w('errTitleTooLong', 200, 201));
      await expect(error).not.toContainText(API_WORDS);
      await expect(again).toHaveAttribute('aria-invalid', 'true');
      await expect(again).toHaveAccessibleDescription(w('errTitleTooLong', 200, 201));
      await expect(again).toBeFocused();
      await expect(again).toHaveValue(EMOJI.repeat(201)); // what was typed is kept, to shorten
      expect(patches).toEqual([]);
      expect((await server.api('GET', '/api/v1/links/emoji', { key: alice })).body.data.title).toBe(whole);
      await expectNoSeriousViolations(app, `a title too long, ${locale}`);

      // Shortened to fit, it saves and the mark goes.
      await again.fill(EMOJI.repeat(200));
      await reopened
        .locator('form.edit-labels')
        .getByRole('button', { name: w('linkLabelsSave'), exact: true })
        .click();
      await expect(row.locator('.link-title')).toHaveText(EMOJI.repeat(200));
      expect(patches).toHaveLength(1);
    });

    test('a code pasted as decomposed Hangul is kept whole and made NFC; 65 characters are refused, nothing sent', async ({
      app,
      server,
    }) => {
      const code = hangulCode(30);
      const pasted = code.normalize('NFD'); // 90 UTF-16 units: maxlength="64" cut it to 21 syllables and a piece
      expect(pasted.length).toBe(90);
      const field = app.getByLabel(labels.customCode, { exact: true });
      await app.getByLabel(labels.longUrl, { exact: true }).fill('https://example.com/hangul');
      await field.fill(pasted);
      await expect(field).toHaveValue(pasted);
      await app.getByRole('button', { name: labels.shorten, exact: true }).click();
      const shortUrl = app.getByRole('textbox', { name: w('resultHeading'), exact: true });
      await expect(shortUrl).toHaveValue(`${server.url}/${code}/`);
      expect(await server.resolve(`${server.url}/${encodeURIComponent(code)}/`)).toEqual({
        status: 302,
        location: 'https://example.com/hangul',
      });

      const posts = apiRequests(app, 'POST');
      const tooLong = hangulCode(65).normalize('NFD');
      await app.getByLabel(labels.longUrl, { exact: true }).fill('https://example.com/too-long');
      await field.fill(tooLong);
      await expect(field).toHaveValue(tooLong);
      await app.getByRole('button', { name: labels.shorten, exact: true }).click();
      const error = app.locator('#code-error');
      await expect(error).toHaveText(w('errCodeTooLong', 64, 65));
      await expect(error).not.toContainText(API_WORDS);
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(field).toBeFocused();
      await expect(app.locator('#result')).toBeVisible(); // the last link stays; nothing new was asked for
      await expect(shortUrl).toHaveValue(`${server.url}/${code}/`);
      expect(posts).toEqual([]);
      await expectNoSeriousViolations(app, `a code too long, ${locale}`);

      // 64 composed syllables (192 units decomposed) are the most a code may have: made.
      await field.fill(hangulCode(64).normalize('NFD'));
      await app.getByRole('button', { name: labels.shorten, exact: true }).click();
      await expect(shortUrl).toHaveValue(`${server.url}/${hangulCode(64)}/`);
      await expect(field).not.toHaveAttribute('aria-invalid', 'true');
    });

    test('a password of 100 emoji is accepted on the shorten form and in the details, and opens the link', async ({
      app,
      server,
    }) => {
      const password = EMOJI.repeat(100); // 100 characters, 200 UTF-16 units
      const pageWords = PASSWORD_PAGE_WORDS[language];
      const field = app.getByLabel(labels.password, { exact: true });
      await app.getByLabel(labels.longUrl, { exact: true }).fill('https://example.com/emoji-lock');
      await app.getByLabel(labels.customCode, { exact: true }).fill('emoji-lock');
      await field.fill(password);
      await expect(field).toHaveValue(password);
      await app.getByRole('button', { name: labels.shorten, exact: true }).click();
      await expect(app.getByRole('textbox', { name: w('resultHeading'), exact: true })).toHaveValue(
        `${server.url}/emoji-lock/`,
      );

      // The visitor's page takes it whole too (its field had maxlength="128" as well).
      const visitor = await app.context().newPage();
      await visitor.goto(`${server.url}/emoji-lock`);
      const visitorField = visitor.getByLabel(pageWords.label, { exact: true });
      await visitorField.fill(password);
      await expect(visitorField).toHaveValue(password);
      const [arrival] = await Promise.all([
        visitor.waitForRequest((request) => request.url() === 'https://example.com/emoji-lock'),
        visitor.getByRole('button', { name: pageWords.submit }).click(),
      ]);
      expect(arrival.isNavigationRequest()).toBe(true);
      await visitor.close();

      // 129 emoji: said beside the field, nothing sent.
      const posts = apiRequests(app, 'POST');
      await app.getByLabel(labels.longUrl, { exact: true }).fill('https://example.com/emoji-too-long');
      await app.getByLabel(labels.customCode, { exact: true }).fill('');
      await field.fill(EMOJI.repeat(129));
      await expect(field).toHaveValue(EMOJI.repeat(129));
      await app.getByRole('button', { name: labels.shorten, exact: true }).click();
      await expect(app.locator('#password-error')).toHaveText(w('errorPasswordLength', 4, 128));
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(posts).toEqual([]);

      // The details' password form: the owner sets 100 emoji on another link.
      const alice = await server.createKey('alice');
      await makeLinks(server, alice, ['emoji-owned']);
      await signIn(app, alice, locale);
      const row = app.locator('#links-body tr[data-code="emoji-owned"]');
      await row.locator('[data-action="details"]').click();
      const details = app.locator('.details-row:not([hidden])');
      const newPassword = details.getByLabel(w('webNewPassword'), { exact: true });
      const setButton = details.getByRole('button', { name: w('webSetPassword'), exact: true });
      await newPassword.fill(EMOJI.repeat(129));
      await setButton.click();
      await expect(details.locator('form.edit-password [role="alert"]')).toHaveText(w('errorPasswordLength', 4, 128));
      await expect(newPassword).toHaveAttribute('aria-invalid', 'true');
      expect((await server.resolve(`${server.url}/emoji-owned`)).status).toBe(302);
      await newPassword.fill(password);
      await expect(newPassword).toHaveValue(password);
      await setButton.click();
      await expect(row.locator('.row-note.done')).toHaveText(w('webPasswordSet'));
      // An API client sends it as X-Link-Password, its bytes as UTF-8 (fetch wants one byte a character).
      const withPassword = async (sent: string) => {
        const response = await fetch(`${server.url}/emoji-owned`, {
          redirect: 'manual',
          headers: { Accept: 'application/json', 'X-Link-Password': Buffer.from(sent).toString('latin1') },
        });
        await response.body?.cancel();
        return response.status;
      };
      expect(await withPassword(EMOJI.repeat(64))).toBe(401); // what maxlength="128" would have kept
      expect(await withPassword(password)).toBe(302);
    });
  });
}
