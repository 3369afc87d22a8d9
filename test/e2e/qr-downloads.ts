import { expect, type Page } from '@playwright/test';

/**
 * Clicks a QR code's Download SVG and Download PNG buttons on `page` and checks both files: named
 * after the code, a standalone SVG with its drawing, and a PNG of the drawing (10 pixels a module,
 * so over 200 × 200, square), not an empty canvas. The popup and the web app share ui/qr-download.ts.
 */
export async function expectQrDownloads(page: Page, code: string): Promise<void> {
  const svgDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: `Download SVG: the QR code of ${code}` }).click();
  const svg = await svgDownload;
  expect(svg.suggestedFilename()).toBe(`${code}.svg`);
  const svgText = (await readAll(await svg.createReadStream())).toString('utf8');
  expect(svgText.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg ')).toBe(true);
  expect(svgText).toContain('xmlns="http://www.w3.org/2000/svg"');
  expect(svgText).toMatch(/<path fill="#000" d="M/);

  const pngDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: `Download PNG: the QR code of ${code}` }).click();
  const png = await pngDownload;
  expect(png.suggestedFilename()).toBe(`${code}.png`);
  const bytes = await readAll(await png.createReadStream());
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(bytes.readUInt32BE(16)).toBeGreaterThan(200);
  expect(bytes.readUInt32BE(16)).toBe(bytes.readUInt32BE(20));
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}
