import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort, startServer } from '../../scripts/server-process.mjs';
import { LONG_HANGUL, launchChromium, visitorContext } from './short-url-pages-fixtures.js';

// `npm run screenshots`, not `npm test`: a protected link's page as a Korean phone in the dark
// theme shows it, after one wrong try (the long Hangul code; Hangul needs fonts-noto-cjk).

test('docs/short-url-password-ko.png: the password page after a wrong try', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'linklet-password-shot-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startServer({
    PORT: String(port),
    BASE_URL: url,
    DATABASE_URL: `sqlite:${join(dir, 'links.db')}`,
  });
  const browser = await launchChromium();
  try {
    const made = await fetch(`${url}/api/v1/shorten`, {
      method: 'POST',
      body: JSON.stringify({
        original_url: 'https://example.com/',
        custom_code: LONG_HANGUL,
        password: '열려라 참깨 1234',
      }),
    });
    expect(made.status).toBe(201);
    const context = await visitorContext(browser, 'ko-KR', { width: 390, height: 700 }, 'dark');
    const page = await context.newPage();
    await page.goto(`${url}/${encodeURIComponent(LONG_HANGUL)}`);
    await page.getByLabel('비밀번호').fill('틀린 비밀번호');
    await page.getByRole('button', { name: '링크 열기' }).click();
    await expect(page.getByText('비밀번호가 맞지 않습니다.')).toBeVisible();
    await page.screenshot({ path: resolve('docs/short-url-password-ko.png') });
  } finally {
    await browser.close();
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
