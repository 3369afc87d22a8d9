// Draws the web app's install icons (webapp/icons/*.png, committed) from Linklet's mark, the SVG
// served at /favicon.svg (core/site/favicon.ts): Chromium renders it, so the PNGs are the mark
// as browsers draw it. Run again only if the mark changes:
//   node scripts/make-web-app-icons.mjs
// The PNGs are committed rather than drawn at each build, as the extension's public/icon/ are:
// the build then needs no browser or image library, and the icons change only with the mark.
import { readFileSync } from 'node:fs';
import { chromium } from '@playwright/test';

const source = readFileSync(new URL('../core/site/favicon.ts', import.meta.url), 'utf8');
const svg = /'(<svg[^']+<\/svg>)'/.exec(source)?.[1];
if (!svg) throw new Error('No SVG found in core/site/favicon.ts; has FAVICON_SVG moved?');
const chain = /<g[^>]*>.*<\/g>/.exec(svg)?.[0];
const blue = /fill="(#[0-9a-f]{6})"/.exec(svg)?.[1];
if (!chain || !blue) throw new Error('The mark no longer has one <g> on a filled <rect>; update this script.');

// Maskable: a launcher cuts any shape out of the middle 80 % (a circle at its smallest), so the
// blue fills the square and the chain, 80 % of its size, stays inside that circle.
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 128 128"><rect width="128" height="128" fill="${blue}"/><g transform="translate(64 64) scale(0.8) translate(-64 -64)">${chain}</g></svg>`;

const ICONS = [
  { file: 'icon-192.png', size: 192, svg },
  { file: 'icon-512.png', size: 512, svg },
  { file: 'icon-maskable-512.png', size: 512, svg: maskable },
];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium' });
const page = await browser.newPage();
for (const icon of ICONS) {
  await page.setViewportSize({ width: icon.size, height: icon.size });
  const sized = icon.svg.replace('<svg ', `<svg width="${icon.size}" height="${icon.size}" `);
  await page.setContent(`<html><body style="margin:0;background:transparent">${sized}</body></html>`);
  await page.locator('svg').screenshot({
    path: new URL(`../webapp/icons/${icon.file}`, import.meta.url).pathname,
    omitBackground: true,
  });
}
await browser.close();
