import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium } from '@playwright/test';
import Database from 'better-sqlite3';
import { freePort, type RunningServer, startServer } from '../../scripts/server-process.mjs';
import { chromiumPath } from './launch-extension.js';

/** 40 Hangul syllables: the longest word a phone must fit without scrolling sideways. */
export const LONG_HANGUL = '가나다라마바사아자차카타파하거너더러머버서어저처커터퍼허고노도로모보소오조초코토포호';
export const EXPIRED_CODE = LONG_HANGUL;
export const DISABLED_CODE = `${LONG_HANGUL.slice(0, 39)}끝`;
export const UNKNOWN_CODE = `${LONG_HANGUL.slice(0, 39)}무`;
/** When the expired link expired: "25 Nov 2026, 10:00 UTC" whenever that is in the past. */
export const EXPIRED_AT = Math.min(Date.UTC(2026, 10, 25, 10), Date.now() - 60_000);

/** The built server on SQLite, holding one expired and one turned-off link (300-character targets). */
export interface PagesServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the server and makes its two dead links as people would meet them: created through the
 * API, then expired and turned off in the database (no waiting for a real expiry).
 */
export async function startPagesServer(): Promise<PagesServer> {
  const dir = await mkdtemp(join(tmpdir(), 'linklet-pages-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const file = join(dir, 'linklet.db');
  const running: RunningServer = await startServer({
    PORT: String(port),
    BASE_URL: url,
    DATABASE_URL: `sqlite:${file}`,
  });
  const target = `https://example.com/${'long-path/'.repeat(28)}end`.slice(0, 300);
  for (const code of [EXPIRED_CODE, DISABLED_CODE]) {
    const made = await fetch(`${url}/api/v1/shorten`, {
      method: 'POST',
      body: JSON.stringify({ original_url: target, custom_code: code }),
    });
    if (made.status !== 201) throw new Error(`could not make ${code}: ${await made.text()}`);
  }
  const db = new Database(file);
  db.prepare('UPDATE links SET expires_at = ? WHERE code_key = ?').run(EXPIRED_AT, EXPIRED_CODE);
  db.prepare('UPDATE links SET disabled = 1 WHERE code_key = ?').run(DISABLED_CODE);
  db.close();
  return {
    url,
    async stop() {
      await running.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Chromium as the end-to-end tests drive it (the sandbox cannot start as root). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
}

/** A browser window of a person with this language, screen and theme. */
export function visitorContext(
  browser: Browser,
  locale: string,
  viewport: { width: number; height: number },
  theme: 'light' | 'dark',
): Promise<BrowserContext> {
  return browser.newContext({ locale, viewport, colorScheme: theme });
}
