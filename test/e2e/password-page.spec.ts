import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort, type RunningServer, startServer } from '../../scripts/server-process.mjs';
import { LONG_HANGUL, launchChromium, visitorContext } from './short-url-pages-fixtures.js';
import { expectNoSeriousViolations } from './web-app/fixtures.js';

// A protected link as a person meets it in real Chromium: the page asks for the password in the
// visitor's language, fits a phone, passes axe; a wrong password says so, the right one takes the
// browser on to the link (the redirect that answers the form passes the page's form-action policy).

const PASSWORD = '열려라 참깨 1234';
const TARGET = 'https://example.com/protected/landing';
const CODE = LONG_HANGUL;
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;
const LANGUAGES = ['en', 'ko'] as const;
/** The code of a test's link: the long Hangul code, told apart by viewport and language. */
const codeOf = (width: number, language: string) => `${CODE.slice(0, 40)}-${width}-${language}`;
const CODES = VIEWPORTS.flatMap(({ width }) => LANGUAGES.map((language) => codeOf(width, language)));

let running: RunningServer;
let url: string;
let dir: string;
test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'linklet-password-page-'));
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  running = await startServer({ PORT: String(port), BASE_URL: url, DATABASE_URL: `sqlite:${join(dir, 'links.db')}` });
  // A link per test: each test spends two of the five tries a minute a client has per link.
  for (const code of CODES) {
    const made = await fetch(`${url}/api/v1/shorten`, {
      method: 'POST',
      body: JSON.stringify({ original_url: TARGET, custom_code: code, password: PASSWORD }),
    });
    if (made.status !== 201) throw new Error(`could not make the link: ${await made.text()}`);
  }
});
test.afterAll(async () => {
  await running.stop();
  await rm(dir, { recursive: true, force: true });
});

const WORDS = {
  en: {
    heading: 'This link is protected by a password',
    label: 'Password',
    submit: 'Open link',
    wrong: 'That password is not right.',
  },
  ko: {
    heading: '비밀번호로 보호된 링크입니다',
    label: '비밀번호',
    submit: '링크 열기',
    wrong: '비밀번호가 맞지 않습니다.',
  },
} as const;

for (const viewport of VIEWPORTS) {
  for (const language of LANGUAGES) {
    test(`${viewport.width}px, ${language}: asks, refuses a wrong password, opens with the right one`, async () => {
      const browser = await launchChromium();
      const context = await visitorContext(browser, language === 'ko' ? 'ko-KR' : 'en-US', viewport, 'light');
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        // The 401 of a wrong password is expected; a policy violation is not.
        if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
          problems.push(message.text());
      });
      const words = WORDS[language];
      const shortUrl = `${url}/${encodeURIComponent(codeOf(viewport.width, language))}`;
      const first = await page.goto(shortUrl);
      expect(first?.status()).toBe(200);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(words.heading);
      await expect(page.locator('main')).not.toContainText('example.com');
      const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      expect(fits, `the page at ${viewport.width}px scrolls sideways`).toBe(true);
      await expectNoSeriousViolations(page, `password page (${language}, ${viewport.width}px)`);

      await page.getByLabel(words.label).fill('not the password');
      const [wrong] = await Promise.all([
        page.waitForResponse((response) => response.request().method() === 'POST'),
        page.getByRole('button', { name: words.submit }).click(),
      ]);
      expect(wrong.status()).toBe(401);
      await expect(page.getByRole('alert')).toContainText(words.wrong);
      await expectNoSeriousViolations(page, `password page, wrong (${language}, ${viewport.width}px)`);

      await page.getByLabel(words.label).fill(PASSWORD);
      // The browser asks for the link's address: the redirect passed the page's form-action policy.
      // (The test has no network, so the navigation itself goes no further.)
      const [arrival] = await Promise.all([
        page.waitForRequest((request) => request.url() === TARGET),
        page.getByRole('button', { name: words.submit }).click(),
      ]);
      expect(arrival.isNavigationRequest()).toBe(true);
      expect(problems).toEqual([]);
      await browser.close();
    });
  }
}

test("another site's page cannot use up the visitor's tries: five wrong posts from it, then the right password opens the link", async () => {
  const code = `${CODE.slice(0, 40)}-lured`;
  const made = await fetch(`${url}/api/v1/shorten`, {
    method: 'POST',
    body: JSON.stringify({ original_url: TARGET, custom_code: code, password: PASSWORD }),
  });
  expect(made.status).toBe(201);
  const shortUrl = `${url}/${encodeURIComponent(code)}`;
  // The other site: `localhost` on another port (another origin and another site than
  // 127.0.0.1), a real server, so the browser labels its requests as it would any page's.
  const lure = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Lure</title><p>Nothing to see</p>');
  }).listen(0, '127.0.0.1');
  await once(lure, 'listening');
  const { port } = lure.address() as AddressInfo;
  const browser = await launchChromium();
  try {
    const context = await visitorContext(browser, 'en-US', VIEWPORTS[1], 'light');
    const page = await context.newPage();
    await page.goto(`http://localhost:${port}/`);
    await page.evaluate(async (link) => {
      for (let i = 0; i < 5; i++) {
        await fetch(link, {
          method: 'POST',
          mode: 'no-cors',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: 'password=wrong',
        });
      }
    }, shortUrl);
    // All five reached the server, which took none as a try (403: not counted, not checked).
    const path = `/${encodeURIComponent(code)}`;
    const answered = await running.waitForLogs((entry) => entry.method === 'POST' && entry.path === path, 5);
    expect(answered.map((entry) => entry.status)).toEqual([403, 403, 403, 403, 403]);

    await page.goto(shortUrl);
    await page.getByLabel(WORDS.en.label).fill(PASSWORD);
    const [arrival] = await Promise.all([
      page.waitForRequest((request) => request.url() === TARGET),
      page.getByRole('button', { name: WORDS.en.submit }).click(),
    ]);
    expect(arrival.isNavigationRequest()).toBe(true);
  } finally {
    await browser.close();
    lure.close();
  }
});
