import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, expectNoSeriousViolations, makeLinks, test, type WebAppServer } from './fixtures.js';
import { API_WORDS, sidewaysOverflow, signIn, VIEWPORTS } from './screens-fixtures.js';

// Link rules and limits in the web app (SPEC "Link rules and limits", issue 55): a link's rules are
// edited in its details and read back as sentences, checked before they are sent, saved with one
// PATCH and followed by the short URL; its limits are shown in the list. On the real server, in
// English and Korean, on a phone and a laptop, light and dark.

type Catalog = Record<string, { message: string }>;
const catalog = (language: string): Catalog =>
  JSON.parse(readFileSync(new URL(`../../../public/_locales/${language}/messages.json`, import.meta.url), 'utf8'));

const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** Where the short URL sends a visitor with these headers (no redirect followed). */
async function visit(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { redirect: 'manual', headers: { 'User-Agent': DESKTOP, ...headers } });
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

/** Opens a link's details and, in them, its rules and limits; resolves with the details. */
async function openDetails(app: Page, code: string, rulesSummary: string) {
  await app.locator(`#links-body tr[data-code="${code}"] [data-action="details"]`).click();
  const details = app.locator('.details-row:not([hidden])');
  await details.locator('summary', { hasText: rulesSummary }).click();
  await expect(details.locator('form.edit-rules')).toBeVisible();
  return details;
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
  /** A rule's sentence as the editor says it, for a subject (the device or "Visitors") and its narrowing. */
  const sentence = (subject: string, narrowing: string, target: string) =>
    w('ruleSentence', w('ruleWho', subject, narrowing).replace(/\s+/g, ' ').trim(), target);

  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    test.describe(`${locale}, ${size}`, () => {
      test.use({ uiLocale: locale });

      test('rules are read as sentences, checked before sending, saved, and the short URL follows them', async ({
        app,
        server,
      }) => {
        await app.setViewportSize(viewport);
        const alice = await server.createKey('alice');
        await makeLinks(server, alice, ['promo']);
        await signIn(app, alice, locale);
        const details = await openDetails(app, 'promo', w('rulesSummary'));
        const editor = details.locator('form.edit-rules');
        // First match wins, and the screen says so.
        await expect(editor).toContainText(w('rulesHelp'));
        await expect(editor.locator('.rules-count')).toHaveText(w('rulesCount', '0', '20'));

        // Rule 1: Android phones.
        await editor.getByRole('button', { name: w('ruleAdd'), exact: true }).click();
        const first = editor.locator('li.rule').nth(0);
        await expect(first.getByRole('combobox', { name: w('ruleConditionType'), exact: true })).toBeFocused();
        await first.getByRole('combobox', { name: w('ruleValueDevice'), exact: true }).selectOption('android');
        await first.getByRole('textbox', { name: w('ruleGoTo'), exact: true }).fill('example.com/android');
        await expect(first.locator('.rule-sentence')).toHaveText(
          sentence(w('ruleDeviceAndroid'), '', 'https://example.com/android'),
        );

        // Rule 2: Korean-speaking visitors who came from the mail.
        await editor.getByRole('button', { name: w('ruleAdd'), exact: true }).click();
        const second = editor.locator('li.rule').nth(1);
        await second.getByRole('combobox', { name: w('ruleConditionType'), exact: true }).selectOption('language');
        await second.getByRole('textbox', { name: w('ruleValueLanguage'), exact: true }).fill('ko');
        await second.getByRole('button', { name: w('ruleAddCondition'), exact: true }).click();
        const mail = second.locator('li.condition').nth(1);
        await mail.getByRole('combobox', { name: w('ruleConditionType'), exact: true }).selectOption('query-param');
        await mail.getByRole('textbox', { name: w('ruleValueKey'), exact: true }).fill('utm_source');
        await mail.getByRole('textbox', { name: w('ruleValueValue'), exact: true }).fill('mail');
        await second.getByRole('textbox', { name: w('ruleGoTo'), exact: true }).fill('https://example.com/ko-mail');
        const korean = new Intl.DisplayNames(locale.slice(0, 2), { type: 'language' }).of('ko') as string;
        const narrowing = [w('ruleLanguage', korean), w('ruleQueryValue', 'utm_source', 'mail')];
        await expect(second.locator('.rule-sentence')).toHaveText(
          sentence(
            w('ruleVisitors'),
            locale === 'ko-KR' ? narrowing.join(', ') : narrowing.join(' and '),
            'https://example.com/ko-mail',
          ),
        );
        await expect(editor.locator('.rules-count')).toHaveText(w('rulesCount', '2', '20'));

        // The mail rule goes first: the order decides, and Move up changes it.
        await second.getByRole('button', { name: w('ruleMoveUp'), exact: true }).click();
        await expect(editor.locator('li.rule .rule-sentence').first()).toContainText('https://example.com/ko-mail');
        await expect(editor.locator('li.rule legend')).toHaveText([w('ruleLegend', '1'), w('ruleLegend', '2')]);

        // A target that is no web address is said by its rule, and nothing is sent.
        const android = editor.locator('li.rule').nth(1);
        const androidTarget = android.getByRole('textbox', { name: w('ruleGoTo'), exact: true });
        await androidTarget.fill('not an address');
        await editor.getByRole('button', { name: w('rulesSave'), exact: true }).click();
        await expect(android.locator('p.error')).toHaveText(w('ruleTargetInvalid'));
        await expect(androidTarget).toHaveAttribute('aria-invalid', 'true');
        await expect(androidTarget).toBeFocused();
        expect((await server.api('GET', '/api/v1/links/promo', { key: alice })).body.data.redirect_rules).toEqual([]);
        await androidTarget.fill('https://example.com/android');

        // The limits: two visits, forwarding the query on.
        await editor.getByRole('textbox', { name: w('limitVisitsLabel'), exact: true }).fill('0');
        await editor.getByRole('button', { name: w('rulesSave'), exact: true }).click();
        await expect(editor.getByText(w('limitVisitsInvalid'), { exact: true })).toBeVisible();
        await editor.getByRole('textbox', { name: w('limitVisitsLabel'), exact: true }).fill('3');
        await editor.getByRole('checkbox', { name: w('forwardQueryLabel'), exact: true }).check();
        await expect(editor).toContainText(w('forwardQueryHelp'));
        const page = await sidewaysOverflow(app);
        expect(page.scrollWidth).toBeLessThanOrEqual(page.viewport);
        await expect(app.locator('main')).not.toContainText(API_WORDS);
        await expect(app.locator('main')).not.toContainText(/redirect_rules|max_visits|valid_since|query-param/);
        await expectAccessibleInBothThemes(app, `the rules editor, ${locale} ${size}`);

        await editor.getByRole('button', { name: w('rulesSave'), exact: true }).click();
        const row = app.locator('#links-body tr[data-code="promo"]');
        await expect(row.locator('.row-note.done')).toHaveText(w('rulesSavedNote'));
        await expect(row.locator('.badge.rules')).toHaveText(w('badgeRulesOther', '2'));
        await expect(row.locator('.badge.visits')).toHaveText(w('badgeVisits', '0', '3'));

        // The API holds what the screen said, in its order; the short URL follows it.
        const saved = (await server.api('GET', '/api/v1/links/promo', { key: alice })).body.data;
        expect(saved.redirect_rules).toEqual([
          {
            target_url: 'https://example.com/ko-mail',
            conditions: [
              { type: 'language', value: 'ko' },
              { type: 'query-param', key: 'utm_source', value: 'mail' },
            ],
          },
          { target_url: 'https://example.com/android', conditions: [{ type: 'device', value: 'android' }] },
        ]);
        expect(saved).toMatchObject({ max_visits: 3, forward_query: true, valid_since: null });
        const short = `${server.url}/promo`;
        expect(await visit(`${short}?utm_source=mail`, { 'Accept-Language': 'ko-KR,ko;q=0.9' })).toEqual({
          status: 302,
          location: 'https://example.com/ko-mail?utm_source=mail',
        });
        expect((await visit(short, { 'User-Agent': ANDROID })).location).toBe('https://example.com/android');
        expect((await visit(short)).location).toBe('https://example.com/promo');
        // Three visits used: the link now answers like an expired one.
        await expect.poll(async () => (await visit(short)).status).toBe(410);

        // Opened again, the editor shows the saved rules and limits, and the list the visits used
        // (clicks are written in batches, within about a second).
        await expect
          .poll(async () => (await server.api('GET', '/api/v1/links/promo', { key: alice })).body.data.clicks)
          .toBe(3);
        await app.reload();
        await expect(app.locator('#links-body tr[data-code="promo"]')).toBeVisible();
        const again = await openDetails(app, 'promo', w('rulesSummary'));
        await expect(again.locator('li.rule .rule-sentence')).toHaveCount(2);
        await expect(again.getByRole('textbox', { name: w('limitVisitsLabel'), exact: true })).toHaveValue('3');
        await expect(again.getByRole('checkbox', { name: w('forwardQueryLabel'), exact: true })).toBeChecked();
        await expect(app.locator('#links-body tr[data-code="promo"] .badge.visits')).toHaveText(
          w('badgeVisits', '3', '3'),
        );
      });

      test('the list says a link starts later; its editor holds 20 rules and says when it is full', async ({
        app,
        server,
      }) => {
        await app.setViewportSize(viewport);
        const alice = await server.createKey('alice');
        const rules = Array.from({ length: 20 }, (_, n) => ({
          target_url: `https://example.com/kr-${n}`,
          conditions: [{ type: 'geolocation-country-code', value: 'KR' }],
        }));
        const since = new Date(Date.now() + 3 * 86_400_000);
        since.setSeconds(0, 0);
        await makeLink(server, alice, 'later', { redirect_rules: rules, valid_since: since.toISOString() });
        expect((await visit(`${server.url}/later`)).status).toBe(410);
        await signIn(app, alice, locale);
        const row = app.locator('#links-body tr[data-code="later"]');
        await expect(row.locator('.badge.rules')).toHaveText(w('badgeRulesOther', '20'));
        const when = new Intl.DateTimeFormat(locale.slice(0, 2), { dateStyle: 'medium', timeStyle: 'short' }).format(
          since,
        );
        await expect(row.locator('.badge.starts')).toHaveText(w('badgeStarts', when));
        const details = await openDetails(app, 'later', w('rulesSummary'));
        const region = new Intl.DisplayNames(locale.slice(0, 2), { type: 'region' }).of('KR') as string;
        await expect(details.locator('li.rule .rule-sentence').first()).toHaveText(
          sentence(w('ruleVisitors'), w('ruleCountry', region, 'KR'), 'https://example.com/kr-0'),
        );
        await expect(details.locator('.rules-count')).toHaveText(w('rulesCount', '20', '20'));
        await expect(details.getByRole('button', { name: w('ruleAdd'), exact: true })).toBeDisabled();
        await expect(details.getByText(w('rulesFull'), { exact: true })).toBeVisible();
        const start = details.getByLabel(w('limitStartLabel'), { exact: true });
        await expect(start).toHaveValue(
          await app.evaluate((iso) => {
            const at = new Date(iso);
            const two = (n: number) => String(n).padStart(2, '0');
            return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}T${two(at.getHours())}:${two(at.getMinutes())}`;
          }, since.toISOString()),
        );
        // Removing one makes room again; the start taken away opens the link.
        await details
          .locator('li.rule')
          .last()
          .getByRole('button', { name: w('ruleRemove'), exact: true })
          .click();
        await expect(details.locator('.rules-count')).toHaveText(w('rulesCount', '19', '20'));
        await expect(details.getByRole('button', { name: w('ruleAdd'), exact: true })).toBeEnabled();
        await start.fill('');
        const page = await sidewaysOverflow(app);
        expect(page.scrollWidth).toBeLessThanOrEqual(page.viewport);
        await expectAccessibleInBothThemes(app, `a full rules editor, ${locale} ${size}`);
        await details.getByRole('button', { name: w('rulesSave'), exact: true }).click();
        await expect(row.locator('.row-note.done')).toHaveText(w('rulesSavedNote'));
        await expect(row.locator('.badge.starts')).toHaveCount(0);
        await expect(row.locator('.badge.rules')).toHaveText(w('badgeRulesOther', '19'));
        expect((await visit(`${server.url}/later`)).location).toBe('https://example.com/later');
      });

      test("the server's refusal of a rule is said by that rule", async ({ app, server }) => {
        await app.setViewportSize(viewport);
        const alice = await server.createKey('alice');
        await makeLinks(server, alice, ['loop']);
        await signIn(app, alice, locale);
        const details = await openDetails(app, 'loop', w('rulesSummary'));
        await details.getByRole('button', { name: w('ruleAdd'), exact: true }).click();
        const rule = details.locator('li.rule').first();
        // A web address, but this server's own: the server refuses it, as it refuses a link's.
        const target = rule.getByRole('textbox', { name: w('ruleGoTo'), exact: true });
        await target.fill(`${server.url}/elsewhere`);
        await details.getByRole('button', { name: w('rulesSave'), exact: true }).click();
        await expect(rule.locator('p.error')).toHaveText(w('errUrlLoop'));
        await expect(target).toHaveAttribute('aria-invalid', 'true');
        await expect(app.locator('main')).not.toContainText(API_WORDS);
        expect((await server.api('GET', '/api/v1/links/loop', { key: alice })).body.data.redirect_rules).toEqual([]);
      });
    });
  }
}
