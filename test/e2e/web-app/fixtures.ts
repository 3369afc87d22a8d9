import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, test as base, chromium, expect, type Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { freePort, type RunningServer, startServer } from '../../../scripts/server-process.mjs';
import { chromiumPath } from '../launch-extension.js';

export { expect };

const run = promisify(execFile);

/** The built server (`node dist/server/main.js`, with the web app from dist/webapp) on SQLite in a temporary folder. */
export interface WebAppServer {
  url: string;
  /** Makes an owner's key with the keys command, as an administrator does: `npm run --silent keys -- create --name …`. */
  createKey(name: string): Promise<string>;
  /** Calls the API directly, as another client would; resolves with the status and the envelope. */
  api(
    method: string,
    path: string,
    options?: { key?: string; body?: unknown },
  ): Promise<{ status: number; body: { status: string; message: string; data: Record<string, unknown> } }>;
  /** `GET` of a short URL without following the redirect. */
  resolve(shortUrl: string): Promise<{ status: number; location: string | null }>;
  /** Makes a (lower-case) code's link expired a minute ago in the database: no waiting for a real expiry. */
  expire(code: string): void;
}

interface Options {
  /** The browser's language (`Accept-Language`, `navigator.languages`). */
  uiLocale: string;
  /** The system theme the page follows (`prefers-color-scheme`). */
  theme: 'light' | 'dark';
}

/** Scans the page with axe-core; serious or critical violations fail the test, named with their nodes. */
export async function expectNoSeriousViolations(page: Page, screen: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  expect(serious, `axe on ${screen}`).toEqual([]);
}

export const test = base.extend<Options & { server: WebAppServer; app: Page }, { chromiumBrowser: Browser }>({
  uiLocale: ['en-US', { option: true }],
  theme: ['light', { option: true }],
  chromiumBrowser: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright requires a destructuring pattern here.
    async ({}, use) => {
      const browser = await chromium.launch({
        executablePath: chromiumPath(),
        headless: true,
        // Chromium's sandbox cannot start as root (containers, CI); everyone else keeps it.
        args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
      });
      await use(browser);
      await browser.close();
    },
    { scope: 'worker' },
  ],
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires a destructuring pattern here.
  server: async ({}, use) => {
    const dir = await mkdtemp(join(tmpdir(), 'linklet-webapp-'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const databaseUrl = `sqlite:${join(dir, 'linklet.db')}`;
    const running: RunningServer = await startServer({
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: url,
      DATABASE_URL: databaseUrl,
    });
    const server: WebAppServer = {
      url,
      async createKey(name) {
        const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
        const { stdout } = await run(npm, ['run', '--silent', 'keys', '--', 'create', '--name', name], {
          env: { ...process.env, DATABASE_URL: databaseUrl },
        });
        return stdout.trim().split('\n').at(-1) as string;
      },
      async api(method, path, options = {}) {
        const response = await fetch(`${url}${path}`, {
          method,
          headers: {
            Accept: 'application/json',
            ...(options.key && { 'X-API-Key': options.key }),
            ...(options.body !== undefined && { 'Content-Type': 'application/json' }),
          },
          ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
        });
        return { status: response.status, body: await response.json() };
      },
      expire(code) {
        const db = new Database(join(dir, 'linklet.db'));
        db.prepare('UPDATE links SET expires_at = ? WHERE code_key = ?').run(Date.now() - 60_000, code);
        db.close();
      },
      async resolve(shortUrl) {
        const response = await fetch(shortUrl, { redirect: 'manual' });
        await response.body?.cancel();
        return { status: response.status, location: response.headers.get('location') };
      },
    };
    await use(server);
    await running.stop();
    await rm(dir, { recursive: true, force: true });
  },
  app: async ({ chromiumBrowser, server, uiLocale, theme }, use, testInfo) => {
    const context = await chromiumBrowser.newContext({ locale: uiLocale, colorScheme: theme, acceptDownloads: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await context.newPage();
    const problems: string[] = [];
    // A policy violation or a script error is a bug even when the screen looks right.
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(server.url);
    await use(page);
    await context.close();
    if (testInfo.status === testInfo.expectedStatus) {
      expect(problems.filter((problem) => !/status of 4\d\d/.test(problem))).toEqual([]);
    }
  },
});

/** Signs in on the page with `key`, as a user does. */
export async function signInWith(page: Page, key: string, name: string): Promise<void> {
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(`Signed in as ${name}.`)).toBeVisible();
}

/** Makes `count` links for `key` through the API, oldest first; resolves with their codes. */
export async function makeLinks(server: WebAppServer, key: string, codes: string[]): Promise<void> {
  for (const code of codes) {
    const made = await server.api('POST', '/api/v1/shorten', {
      key,
      body: { original_url: `https://example.com/${code}`, custom_code: code },
    });
    expect(made.status, made.body.message).toBe(201);
  }
}
