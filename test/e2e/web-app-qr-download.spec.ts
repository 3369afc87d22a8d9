import { expect, expectNoSeriousViolations, makeLinks, signInWith, test } from './web-app-fixtures.js';

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

  const svgDownload = app.waitForEvent('download');
  await app.getByRole('button', { name: `Download SVG: the QR code of ${code}` }).click();
  const svg = await svgDownload;
  expect(svg.suggestedFilename()).toBe(`${code}.svg`);
  const svgText = (await readAll(await svg.createReadStream())).toString('utf8');
  expect(svgText.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg ')).toBe(true);
  expect(svgText).toContain('xmlns="http://www.w3.org/2000/svg"');
  expect(svgText).toMatch(/<path fill="#000" d="M/);

  const pngDownload = app.waitForEvent('download');
  await app.getByRole('button', { name: `Download PNG: the QR code of ${code}` }).click();
  const png = await pngDownload;
  expect(png.suggestedFilename()).toBe(`${code}.png`);
  const bytes = await readAll(await png.createReadStream());
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(bytes.readUInt32BE(16)).toBeGreaterThan(200);

  await expectNoSeriousViolations(app, 'details with the QR download');
});

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}
