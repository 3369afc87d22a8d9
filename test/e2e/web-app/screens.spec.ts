import { expect, expectNoSeriousViolations, test } from './fixtures.js';
import {
  API_WORDS,
  hangulCode,
  longUrl,
  makeStressLinks,
  measureRows,
  reportCode,
  sidewaysOverflow,
  signIn,
  VIEWPORTS,
  visibleText,
  WORDS,
} from './screens-fixtures.js';

// The screens of the web app, at a phone's
// and a laptop's size, light and dark, English and Korean, with data that stresses the layout:
// 26 links with 300-character targets that differ only at their end, 40-syllable Hangul codes
// and long codes alike but for their end.
const LINKS = 26;

for (const locale of ['en-US', 'ko-KR'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      test.describe(`${locale} ${theme} ${size}`, () => {
        test.use({ uiLocale: locale, theme });

        test('the links fit: no sideways scroll, each code whole and each target cut in its middle, every action in view, Copied where clicked, details not clipped', async ({
          app,
          server,
        }) => {
          const words = WORDS[locale];
          await app.setViewportSize(viewport);
          const alice = await server.createKey('alice');
          await makeStressLinks(server, alice, LINKS);
          await signIn(app, alice, locale);
          await expect(app.locator('#links-body tr[data-code]')).toHaveCount(20);

          const page = await sidewaysOverflow(app);
          expect(page.scrollWidth, 'the page scrolls sideways').toBeLessThanOrEqual(page.viewport);
          const card = await app.locator('#signed-in').evaluate((element) => ({
            scroll: element.scrollWidth,
            client: element.clientWidth,
          }));
          expect(card.scroll, 'the card scrolls sideways').toBeLessThanOrEqual(card.client);

          const rows = await measureRows(app);
          expect(rows).toHaveLength(20);
          const codes = new Set<string>();
          for (const row of rows) {
            // What differs stays in view: the code whole (the shared host gives way), and the
            // target's start and its end (where these targets differ), cut in the middle.
            expect(row.shownShortUrl, 'the code whole').toMatch(new RegExp(`(^|/)${row.code}/$`));
            codes.add(row.shownShortUrl);
            const target = row.oneLine[0]?.title ?? '';
            expect(row.shownTarget.startsWith('https://exam'), `the start of ${target}`).toBe(true);
            expect(row.shownTarget.endsWith(target.slice(-16)), `the end of ${target}`).toBe(true);
            expect(row.shownTarget.length, 'a 300-character target is cut').toBeLessThan(target.length);
            // At most about four lines, whatever the URL (a 300-character target made 14).
            expect(row.height, `row ${row.code}`).toBeLessThanOrEqual(150);
            expect(row.actions.map((action) => action.text)).toEqual(
              expect.arrayContaining([words.copy, words.details, words.disable]),
            );
            for (const action of row.actions) {
              expect(action.left, `${action.text} of ${row.code}`).toBeGreaterThanOrEqual(0);
              expect(action.right, `${action.text} of ${row.code}`).toBeLessThanOrEqual(viewport.width);
              expect(action.height, `${action.text} on one line`).toBeLessThan(40);
            }
            for (const cell of row.oneLine) {
              expect(cell.height, 'a target on one line').toBeLessThan(cell.lineHeight * 2);
              expect(cell.title, 'the whole text as a tooltip').not.toBe('');
            }
            expect(row.badge, 'the status badge on one line').toBeLessThan(28);
            expect(row.time, 'the date on one line').toBeLessThan(28);
          }
          expect(codes.size, 'no two links look the same').toBe(rows.length);
          if (locale === 'ko-KR') {
            expect(await app.evaluate(() => getComputedStyle(document.body).wordBreak)).toBe('keep-all');
          }
          await expectNoSeriousViolations(app, `the links, ${locale} ${theme} ${size}`);

          // Copy says so where it was clicked, and Disable's note, an earlier action's, goes.
          const first = app.locator('#links-body tr[data-code]').first();
          await first.scrollIntoViewIfNeeded();
          await first.getByRole('button', { name: words.disable, exact: true }).click();
          await expect(first.locator('.row-note')).toHaveText(words.disabledNote);
          await first.getByRole('button', { name: words.copy, exact: true }).click();
          const copied = first.getByRole('button', { name: words.copied, exact: true });
          await expect(copied).toBeVisible();
          await expect(app.getByText(words.disabledNote)).toBeHidden();
          const shortUrl = await first.locator('th a').getAttribute('href');
          expect(await app.evaluate(() => navigator.clipboard.readText())).toBe(shortUrl);
          await expect(first.getByRole('button', { name: words.copy, exact: true })).toBeVisible(); // back after ~2 s

          // Details turns into Hide, and its panel (the whole texts, stats, QR) fits the screen.
          await first.getByRole('button', { name: words.details, exact: true }).click();
          await expect(first.getByRole('button', { name: words.hide, exact: true })).toHaveAttribute(
            'aria-expanded',
            'true',
          );
          const details = app.locator('.details-row:not([hidden])');
          await expect(details.locator('svg.chart')).toBeVisible();
          await expect(details.locator('.full-text')).toContainText(shortUrl ?? '');
          for (const part of ['svg.chart', '.qr svg', 'input[type="url"]']) {
            const box = await details.locator(part).boundingBox();
            expect(box, part).not.toBeNull();
            expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= viewport.width, `${part} inside`).toBe(
              true,
            );
          }
          const after = await sidewaysOverflow(app);
          expect(after.scrollWidth).toBeLessThanOrEqual(after.viewport);
          await expectNoSeriousViolations(app, `a link's details, ${locale} ${theme} ${size}`);
        });
      });
    }
  }
}

test.describe('words for people', () => {
  for (const locale of ['en-US', 'ko-KR'] as const) {
    test.describe(locale, () => {
      test.use({ uiLocale: locale });

      test('shorten errors sit next to their field, in the page’s language, without API words; the scheme is added', async ({
        app,
        server,
      }) => {
        await app.setViewportSize(VIEWPORTS.phone);
        const url = app.locator('#url');
        const code = app.locator('#code');
        const submit = app.locator('#shorten');
        const visibleErrors = async () =>
          (await app.locator('.error:not([hidden])').allInnerTexts()).filter((text) => text.trim() !== '');

        await url.fill('https://example.com/a page');
        await submit.click();
        await expect(app.locator('#url-error')).toBeVisible();
        await expect(url).toHaveAttribute('aria-invalid', 'true');
        for (const text of await visibleErrors()) expect(text).not.toMatch(API_WORDS);
        if (locale === 'ko-KR') expect((await visibleErrors()).join(' ')).not.toMatch(/[A-Za-z]{5,}/);

        await url.fill('example.com/page');
        await code.fill('has space');
        await submit.click();
        await expect(app.locator('#code-error')).toBeVisible();
        // The code's hint and error sit under the code, above "Expires after" (stacked on a phone).
        const top = async (selector: string) => (await app.locator(selector).boundingBox())?.y ?? Number.NaN;
        for (const under of ['#code-help', '#code-error']) {
          expect(await top(under), `${under} under the code`).toBeGreaterThan(await top('#code'));
          expect(await top(under), `${under} above the expiry`).toBeLessThan(await top('#expire'));
        }
        await expect(app.locator('#url-error')).toBeHidden(); // a new attempt clears the last error
        await expect(url).not.toHaveAttribute('aria-invalid', 'true');
        for (const text of await visibleErrors()) expect(text).not.toMatch(API_WORDS);

        await code.fill('');
        await submit.click();
        await expect(app.locator('#result')).toBeVisible();
        await expect(url).toHaveValue('https://example.com/page');
        const made = await app.locator('#short-url').inputValue();
        expect(await server.resolve(made)).toEqual({ status: 302, location: 'https://example.com/page' });
        await expect(app.locator('.error:not([hidden])')).toHaveCount(0);
        await expectNoSeriousViolations(app, `shorten errors, ${locale}`);
      });
    });
  }

  test('a key the server refuses is said in words, not the server’s', async ({ app }) => {
    await app.getByLabel('API key').fill('lk_not-a-real-key');
    await app.getByRole('button', { name: 'Sign in' }).click();
    await expect(app.locator('#sign-in-error')).toBeVisible();
    expect(await app.locator('#sign-in-error').innerText()).not.toMatch(API_WORDS);
  });
});

/** The words of "Made in this browser" and of the claim at sign-in, in the two languages. */
const MADE_HERE = {
  'en-US': {
    theme: 'light',
    hint: 'Sign in to list your links on every device.',
    region: 'Made in this browser',
    claimed: '1 link you made before signing in is now yours.',
    refused: (code: string) => `Not added: ${code} (this browser's proof that it made the link does not match).`,
    noLinksYet: 'No links yet. Shorten one above.',
    signOut: 'Sign out',
    clear: 'Clear this list',
  },
  'ko-KR': {
    theme: 'dark',
    hint: '로그인하면 어느 기기에서나 내 링크 목록을 볼 수 있습니다.',
    region: '이 브라우저에서 만든 링크',
    claimed: '로그인하기 전에 만든 링크 1개를 내 링크에 추가했습니다.',
    refused: (code: string) => `추가하지 못한 링크: ${code} (이 브라우저에서 만들었다는 증명이 맞지 않습니다)`,
    noLinksYet: '아직 링크가 없습니다. 위에서 링크를 줄여 보세요.',
    signOut: '로그아웃',
    clear: '목록 지우기',
  },
} as const;

for (const locale of ['en-US', 'ko-KR'] as const) {
  const says = MADE_HERE[locale];
  test.describe(`${locale} ${says.theme}`, () => {
    test.use({ uiLocale: locale, theme: says.theme });

    test('links made signed out are listed under "Made in this browser", and are the maker\'s once they sign in', async ({
      app,
      server,
    }) => {
      const words = WORDS[locale];
      await app.setViewportSize(VIEWPORTS.phone);
      await expect(app.locator('#sign-in-hint')).toHaveText(says.hint);
      await expect(app.locator('#made-here')).toBeHidden();
      await app.getByLabel(locale === 'en-US' ? 'Long URL' : '긴 URL').fill(longUrl(1));
      await app.locator('#code').fill(reportCode(1));
      await app.locator('#shorten').click();
      await expect(app.locator('#short-url')).toHaveValue(`${server.url}/${reportCode(1)}/`);
      const made = await app.locator('#short-url').inputValue();
      const list = app.getByRole('region', { name: says.region });
      await expect(list.getByRole('link', { name: made })).toBeVisible();
      // Its code whole (the host gives way), its target's start and end.
      const [shownUrl] = await visibleText(app, '#made-here-list a');
      expect(shownUrl).toMatch(new RegExp(`(^|/)${reportCode(1)}/$`));
      const [shownTarget] = await visibleText(app, '#made-here-list .target-text');
      expect(shownTarget?.startsWith('https://exam')).toBe(true);
      expect(shownTarget?.endsWith(longUrl(1).slice(-16))).toBe(true);
      await app.reload();
      await expect(list.getByRole('link', { name: made })).toBeVisible(); // kept in this browser
      const page = await sidewaysOverflow(app);
      expect(page.scrollWidth).toBeLessThanOrEqual(page.viewport);
      await list.getByRole('button', { name: words.copy, exact: true }).click();
      await expect(list.getByRole('button', { name: words.copied, exact: true })).toBeVisible();
      await expectNoSeriousViolations(app, 'Made in this browser');

      // Another link made signed out whose proof this browser holds wrong: refused, said once, kept listed.
      const other = await server.api('POST', '/api/v1/shorten', {
        body: { original_url: longUrl(2), custom_code: hangulCode(2) },
      });
      await app.evaluate(
        (link) => {
          const kept = JSON.parse(localStorage.getItem('linklet.madeHere') ?? '[]');
          const wrong = `${link.claim_token.slice(0, -1)}${link.claim_token.endsWith('A') ? 'B' : 'A'}`;
          localStorage.setItem('linklet.madeHere', JSON.stringify([...kept, { ...link, claim_token: wrong }]));
        },
        other.body.data as { claim_token: string },
      );

      const alice = await server.createKey('alice');
      await signIn(app, alice, locale); // waits for a row: before, "No links yet" stood here
      const rows = app.locator('#links-body tr[data-code]');
      await expect(rows).toHaveCount(1);
      await expect(rows.first().getByRole('rowheader')).toHaveText(made);
      await expect(app.getByText(says.noLinksYet)).toBeHidden();
      const note = app.locator('#claim-note');
      await expect(note.locator('p')).toHaveText([says.claimed, says.refused(hangulCode(2))]);
      expect(await note.innerText()).not.toMatch(API_WORDS);
      const kept = await app.evaluate(() => JSON.parse(localStorage.getItem('linklet.madeHere') ?? '[]'));
      const { claim_token: _spent, ...refusedLink } = other.body.data;
      expect(kept, 'the claimed link leaves the list; the refused one stays, without its proof').toEqual([refusedLink]);
      for (const viewport of [VIEWPORTS.phone, VIEWPORTS.desktop]) {
        await app.setViewportSize(viewport);
        const box = await note.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= viewport.width).toBe(true);
        const layout = await sidewaysOverflow(app);
        expect(layout.scrollWidth).toBeLessThanOrEqual(layout.viewport);
        await expectNoSeriousViolations(app, `the claim note at ${viewport.width} px`);
      }

      // Signed out, the claimed link is the owner's (not listed here); the refused one stays.
      await app.getByRole('button', { name: says.signOut }).click();
      await expect(note).toBeHidden();
      await expect(list.getByRole('link', { name: made })).toBeHidden();
      await expect(list.getByRole('link', { name: other.body.data.short_url as string })).toBeVisible();
      // Said once: signing in again claims nothing and says nothing.
      await signIn(app, alice, locale);
      await expect(note).toBeHidden();
      await app.getByRole('button', { name: says.signOut }).click();
      await list.getByRole('button', { name: says.clear }).click();
      await expect(list).toBeHidden();
    });
  });
}

test('Disable and Save say what changed next to the link; a new action clears it; counts agree; empty search says so', async ({
  app,
  server,
}) => {
  const alice = await server.createKey('alice');
  await makeStressLinks(server, alice, 1);
  await signIn(app, alice, 'en-US');
  await expect(app.locator('#links-caption')).toHaveText('Your links, page 1 · 1 link');
  const row = app.locator('#links-body tr[data-code]').first();
  await row.getByRole('button', { name: 'Disable' }).click();
  await expect(row.locator('.row-note')).toHaveText('Disabled: its short URL no longer leads anywhere.');
  await row.getByRole('button', { name: 'Enable' }).click();
  await expect(row.locator('.row-note')).toHaveText('Enabled: its short URL leads to the page again.');
  await expect(app.locator('.row-note')).toHaveCount(1);

  await row.getByRole('button', { name: 'Details' }).click();
  const details = app.locator('.details-row:not([hidden])');
  await details.getByLabel('Target URL').fill('example.org/moved');
  await details.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(row.locator('.row-note')).toHaveText('Saved: it now leads to the new address.');
  expect(await server.resolve(await row.locator('th a').getAttribute('href').then(String))).toEqual({
    status: 302,
    location: 'https://example.org/moved',
  });
  await expectNoSeriousViolations(app, 'a note next to a link');

  await app.getByLabel('Search links').fill('nothing-like-this');
  await expect(app.locator('#links-empty')).toHaveText('No links match.');
  await app.getByLabel('Search links').fill('');
  await expect(row).toBeVisible();

  // A message belongs to the action that made it: a search, Shorten, Details, Disable each clear
  // Import's; Disable then says its own.
  const importError = app.locator('#transfer-error');
  const importWithoutFile = async () => {
    await app.getByRole('button', { name: 'Import' }).click();
    await expect(importError).toHaveText('Choose a file to import first.');
  };
  await importWithoutFile();
  await app.getByLabel('Search links').fill('moved');
  await expect(importError).toBeHidden();
  await importWithoutFile();
  await app.getByLabel('Long URL').fill('example.com/another');
  await app.getByRole('button', { name: 'Shorten' }).click();
  await expect(app.locator('#short-url')).toHaveValue(/\/[\w-]+\/$/);
  await expect(importError).toBeHidden();
  await importWithoutFile();
  await row.getByRole('button', { name: 'Details' }).click();
  await expect(importError).toBeHidden();
  await importWithoutFile();
  await row.getByRole('button', { name: 'Disable' }).click();
  await expect(row.locator('.row-note')).toHaveText('Disabled: its short URL no longer leads anywhere.');
  await expect(importError).toBeHidden();
});

test('import shows it is working and cannot be sent twice; its result is short, problems one per line, cleared by Export', async ({
  app,
  server,
}) => {
  const alice = await server.createKey('alice');
  await makeStressLinks(server, alice, 1);
  await signIn(app, alice, 'en-US');
  // Hold the import's answer until the page has been looked at while it waits.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await app.route('**/api/v1/links/import', async (route) => {
    await held;
    await route.continue();
  });
  const csv = [
    'code,short_url,original_url,created_at,expiration_date,status,clicks',
    `fresh,,https://example.com/fresh,,,,`,
    `bad,,ftp://example.com/x,,,,`,
    `bad-too,,not a url,,,,`,
  ].join('\n');
  await app
    .getByLabel('Links file')
    .setInputFiles({ name: 'links.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  const importButton = app.getByRole('button', { name: 'Import' });
  await importButton.click();
  await expect(app.locator('#transfer-result')).toHaveText('Importing…');
  await expect(importButton).toBeDisabled();
  release();
  await expect(app.locator('#transfer-result')).toHaveText(
    'Created 1 of 3 links. Already yours: 0 · code taken: 0 · not valid: 2 · skipped: 0.',
  );
  await expect(importButton).toBeEnabled();
  // A partial import is not shown as a success.
  const colour = (selector: string) => app.locator(selector).evaluate((element) => getComputedStyle(element).color);
  expect(await colour('#transfer-result')).not.toBe('rgb(26, 127, 55)');
  const problems = app.locator('#import-problems li');
  await expect(problems).toHaveCount(2);
  for (const text of await problems.allInnerTexts()) expect(text).not.toMatch(API_WORDS);

  const download = app.waitForEvent('download');
  await app.getByRole('button', { name: 'Export' }).click();
  await download;
  await expect(problems).toHaveCount(0);
  await expect(app.locator('#transfer-result')).toHaveText(/^Saved linklet-links-/);
});
