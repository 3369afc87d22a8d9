import { readFileSync } from 'node:fs';
import { startReceiver } from '../../server/webhook-receiver.js';
import { expect, expectNoSeriousViolations, makeLinks, test } from './fixtures.js';
import { API_WORDS, sidewaysOverflow, signIn, VIEWPORTS } from './screens-fixtures.js';

// The webhooks screen of the web app, on the real server: add an endpoint (its secret shown
// once, with Copy), send it a test that a receiver on this machine verifies with that secret,
// see a failing endpoint's last messages say why, and delete one. Both languages, a phone and a
// desktop, light and dark, axe clean.

type Catalog = Record<string, { message: string }>;
const catalog = (language: string): Catalog =>
  JSON.parse(readFileSync(new URL(`../../../public/_locales/${language}/messages.json`, import.meta.url), 'utf8'));

const RUNS = [
  ['en-US', 'phone', 'light'],
  ['en-US', 'desktop', 'dark'],
  ['ko-KR', 'phone', 'dark'],
  ['ko-KR', 'desktop', 'light'],
] as const;

for (const [locale, size, theme] of RUNS) {
  const words = catalog(locale.slice(0, 2));
  const w = (key: string, ...values: string[]) =>
    values.reduce((text, value, i) => text.replace(`$${i + 1}`, value), words[key]?.message ?? `(missing ${key})`);
  test.describe(`${locale} ${theme} ${size}`, () => {
    test.use({ uiLocale: locale, theme });

    test('webhooks are added with their secret shown once, tested, explained when failing, and deleted', async ({
      app,
      server,
    }) => {
      await app.setViewportSize(VIEWPORTS[size]);
      const receiver = await startReceiver();
      const failing = await startReceiver();
      failing.answerWith(() => 500);
      try {
        const alice = await server.createKey('alice');
        await makeLinks(server, alice, ['alpha']);
        await signIn(app, alice, locale);
        const section = app.locator('section.webhooks');
        await expect(section.getByRole('heading', { name: w('webhooksHeading') })).toBeVisible();

        // Add: the secret is shown once, with Copy.
        await section.getByRole('textbox', { name: w('webhookUrlLabel') }).fill(receiver.url);
        await section.getByRole('checkbox', { name: w('webhookEventDeleted') }).check();
        await section.getByRole('button', { name: w('webhookAdd'), exact: true }).click();
        const secret = (await app.locator('#webhook-secret-value').textContent()) ?? '';
        expect(secret).toMatch(/^whsec_/);
        await expect(app.locator('#webhook-secret')).toContainText(w('webhookSecretShown'));
        await app
          .locator('#webhook-secret')
          .getByRole('button', { name: w('copy'), exact: true })
          .click();
        expect(await app.evaluate(() => navigator.clipboard.readText())).toBe(secret);
        const item = section.locator('li.webhook').filter({ hasText: receiver.url });
        await expect(item).toContainText(
          [w('webhookEventCreated'), w('webhookEventDeleted'), w('webhookEventClicked')].join(', '),
        );
        await expect(item.locator('.deliveries')).toHaveText(w('webhookNoDeliveries'));

        // A test reaches the receiver, signed with that secret, and shows as delivered.
        await item.getByRole('button', { name: w('webhookTest'), exact: true }).click();
        await expect(item.locator('.row-note')).toHaveText(w('webhookTestQueued'));
        await receiver.until((all) => all.length >= 1);
        expect(receiver.verified(receiver.received[0] as never, secret).type).toBe('webhook.test');
        await expect(item.locator('.deliveries li')).toContainText(w('webhookDelivered'));

        // A failing endpoint says why, in words, and when it is tried again.
        await section.getByRole('textbox', { name: w('webhookUrlLabel') }).fill(failing.url);
        await section.getByRole('button', { name: w('webhookAdd'), exact: true }).click();
        const broken = section.locator('li.webhook').filter({ hasText: failing.url });
        await broken.getByRole('button', { name: w('webhookTest'), exact: true }).click();
        await failing.until((all) => all.length >= 1);
        await expect(broken.locator('.deliveries li')).toContainText(w('webhookFailedStatus', '500'));
        await expect(broken.locator('.deliveries li')).toContainText(w('webhookNextTry', '').trim());

        // A refused address is said next to the form, in the page's words.
        await section.getByRole('textbox', { name: w('webhookUrlLabel') }).fill('ftp://example.com/in');
        await section.getByRole('button', { name: w('webhookAdd'), exact: true }).click();
        await expect(app.locator('#webhook-error')).toHaveText(w('webhookUrlInvalid'));

        const overflow = await sidewaysOverflow(app);
        expect(overflow.scrollWidth).toBeLessThanOrEqual(overflow.viewport);
        expect(await section.innerText()).not.toMatch(API_WORDS);
        await expectNoSeriousViolations(app, `webhooks, ${locale} ${theme} ${size}`);

        // Delete asks first, then the endpoint is gone (from the API too).
        await broken.getByRole('button', { name: w('delete'), exact: true }).click();
        const dialog = app.getByRole('dialog', { name: w('webhookConfirmDeleteTitle') });
        await expect(dialog).toContainText(w('webhookConfirmDeleteText', failing.url));
        await dialog.getByRole('button', { name: w('delete'), exact: true }).click();
        await expect(section.locator('li.webhook')).toHaveCount(1);
        const listed = await server.api('GET', '/api/v1/webhooks', { key: alice });
        expect((listed.body.data.webhooks as Array<{ url: string }>).map((hook) => hook.url)).toEqual([receiver.url]);
      } finally {
        await receiver.close();
        await failing.close();
      }
    });
  });
}
