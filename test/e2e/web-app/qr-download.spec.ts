import { expectQrDownloads } from '../qr-downloads.js';
import { expectNoSeriousViolations, makeLinks, signInWith, test } from './fixtures.js';

// The web app's link details offer the QR code as files named after the code, drawn
// by the same code as the popup's (ui/qr-download.ts): SVG as is, PNG drawn in a canvas.

test('a link’s details save its QR code as <code>.svg and <code>.png, a Hangul code readable', async ({
  app,
  server,
}) => {
  const key = await server.createKey('qr-owner');
  const code = '큐알코드';
  await makeLinks(server, key, [code]);
  await signInWith(app, key, 'qr-owner');
  const row = app.locator('#links-body tr', { hasText: code }).first();
  await row.getByRole('button', { name: /Details/ }).click();

  await expectQrDownloads(app, code);

  await expectNoSeriousViolations(app, 'details with the QR download');
});
