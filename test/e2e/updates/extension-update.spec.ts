import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort, type RunningServer, startServer } from '../../../scripts/server-process.mjs';
import { startTestSite, type TestSite } from '../test-site.js';
import {
  backgroundVersion,
  controlledPopupTab,
  launchProfile,
  type ProfileBrowser,
  popupTab,
  putBuildInFolder,
  restartsAsked,
  unpackedExtensionId,
  updateInPlace,
} from './profile-in-place.js';
import { releaseBuild } from './release-build.js';
import { historyByUrl, makeKey, shortenInForm } from './release-popup.js';

// An update as a store delivers it (docs/updates-extension.md): an earlier release's build (0.1.0,
// or 0.2.0, the first with a version of its own) in a folder, used in a profile that lasts; the browser starts again with the release, and
// while it runs today's build, at package.json's higher version, is applied over it at the same path
// (same extension id), as Chromium applies a store's update; everything the release made is still
// listed at the popup's first open (which does not close itself), opens, keeps its settings and
// counts its clicks, and a later start still runs today's build.

const TODAY = resolve('.output/chrome-mv3');
const versionOf = (build: string): string =>
  (JSON.parse(readFileSync(join(build, 'manifest.json'), 'utf8')) as { version: string }).version;
/** Whether `a` is a higher dotted version than `b`, as a store compares them. */
const isHigher = (a: string, b: string): boolean => {
  const [x, y] = [a, b].map((version) => version.split('.').map(Number));
  for (let i = 0; i < Math.max(x?.length ?? 0, y?.length ?? 0); i++) {
    const difference = (x?.[i] ?? 0) - (y?.[i] ?? 0);
    if (difference !== 0) return difference > 0;
  }
  return false;
};
const ADMIN_KEY = 'e2e-updates-admin-key-0123456789';

interface Release {
  commit: string;
  /** The release takes an owner's API key (and so pulls clicks of synced links). */
  keys: boolean;
  /** The release's open page counts a local link's clicks. */
  localClicks: boolean;
  /** The release pulls a synced link's title, tags and password badge into its history. */
  labels: boolean;
  /** Its manifest's version: 0.1.0 until releases had versions of their own. */
  version: string;
  /** Its background answers `linklet:build` with its version (0.2.0 on). */
  answersBuild: boolean;
}

const RELEASES: Release[] = [
  { commit: 'aaedf42', keys: false, localClicks: false, labels: false, version: '0.1.0', answersBuild: false },
  { commit: '3289986', keys: true, localClicks: true, labels: false, version: '0.1.0', answersBuild: false },
  { commit: '5711d13', keys: true, localClicks: true, labels: true, version: '0.1.0', answersBuild: false },
  { commit: '5607bd0', keys: true, localClicks: true, labels: true, version: '0.2.0', answersBuild: true },
  { commit: '6c2ba05', keys: true, localClicks: true, labels: true, version: '0.3.0', answersBuild: true },
  { commit: '217a6b6', keys: true, localClicks: true, labels: true, version: '0.4.0', answersBuild: true },
];

for (const release of RELEASES) {
  test.describe(`an update in place from ${release.commit}`, () => {
    let build = '';
    test.beforeAll(async () => {
      // A cold machine builds the release here (its own npm ci); a warm one finds it cached.
      test.setTimeout(20 * 60_000);
      build = await releaseBuild(release.commit);
    });

    let dir = '';
    let site: TestSite;
    let server: RunningServer | undefined;
    let serverUrl = '';
    let browser: ProfileBrowser | undefined;
    test.beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), `linklet-update-${release.commit}-`));
      site = await startTestSite();
      const port = await freePort();
      serverUrl = `http://127.0.0.1:${port}`;
      server = await startServer({
        PORT: String(port),
        HOST: '127.0.0.1',
        BASE_URL: serverUrl,
        DATABASE_URL: `sqlite:${join(dir, 'linklet.db')}`,
        // An administrator's key makes the server ask every create for a key: only for releases that send one.
        ...(release.keys ? { API_KEY: ADMIN_KEY } : {}),
        LOG_LEVEL: 'info',
      });
    });
    test.afterEach(async () => {
      await browser?.close().catch(() => undefined);
      await server?.stop();
      await site.close();
      await rm(dir, { recursive: true, force: true });
    });

    test('keeps, lists and opens every link, keeps the settings and counts clicks as before', async () => {
      test.setTimeout(240_000);
      const folder = join(dir, 'extension');
      const profile = join(dir, 'profile');
      // Six links: five local ones (codes in Hangul, ASCII and generated), one on the server.
      const local = {
        hangul: site.url('/local/hangul'),
        generated: site.url('/local/generated'),
        other: site.url('/local/other'),
        chosen: site.url('/local/chosen'),
        last: site.url('/local/last'),
      };
      const synced = site.url('/synced/made-before');

      // A store only takes a higher version: the release says its own, today's build package.json's.
      const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
      expect(versionOf(build)).toBe(release.version);
      expect(versionOf(TODAY)).toBe(version);
      expect(isHigher(version, versionOf(build)), `${version} is higher than ${release.version}`).toBe(true);

      // The release: local links (one with a Hangul code), opened; then a server (and a key) and a synced link.
      putBuildInFolder(build, folder);
      browser = await launchProfile(profile, folder);
      let popup = await controlledPopupTab(browser);
      const hangulShort = await shortenInForm(popup, local.hangul, '업데이트');
      expect(decodeURI(hangulShort)).toContain('업데이트');
      await shortenInForm(popup, local.generated);
      await shortenInForm(popup, local.other);
      await shortenInForm(popup, local.chosen, 'release-kept');
      await shortenInForm(popup, local.last);
      const opened = await browser.context.newPage();
      for (const _ of [1, 2]) {
        await opened.goto(hangulShort);
        await expect(opened).toHaveURL(local.hangul);
      }
      const key = release.keys ? await makeKey(serverUrl, ADMIN_KEY, 'updater') : '';
      const options = await browser.context.newPage();
      await options.goto(`${browser.origin}/options.html`);
      await options.locator('#server-url').fill(serverUrl);
      if (release.keys) await options.locator('#api-key').fill(key);
      await options.locator('#default-expire').selectOption('1month');
      await options.locator('#auto-copy').uncheck();
      await options.locator('#save').click();
      await expect(options.locator('#options-status')).toHaveText('Saved.');
      await popup.reload();
      const syncedShort = await shortenInForm(popup, synced);
      expect(syncedShort.startsWith(`${serverUrl}/`)).toBe(true);
      // A click on the server, which the history shows where the release pulls them (with a key).
      // As a browser: a script's own User-Agent is a bot, a visit but not a click.
      const asBrowser = {
        'User-Agent':
          'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
      };
      expect((await fetch(syncedShort, { redirect: 'manual', headers: asBrowser })).status).toBe(302);
      // Set on the server after the shorten (in the web app, say): a release with them pulls the
      // link's title, tags and password into its history record, which today's must still show.
      const labels = { title: '분기 보고서 — Q1', tags: ['work', '보고서'] };
      if (release.labels) {
        const code = decodeURIComponent(new URL(syncedShort).pathname.slice(1).replace(/\/$/, ''));
        const patched = await fetch(`${serverUrl}/api/v1/links/${encodeURIComponent(code)}`, {
          method: 'PATCH',
          headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
          body: JSON.stringify({ ...labels, password: 'update pass 2026' }),
        });
        expect(patched.status).toBe(200);
        await expect
          .poll(async () => {
            await popup.reload();
            const item = (await historyByUrl(popup, 6)).get(synced);
            return item && { title: item.title, tags: item.tags, locked: item.locked };
          })
          .toEqual({ ...labels, locked: true });
      }
      await browser.close();

      // The update: the browser starts again with the release, as a person's does before an update
      // comes; while it runs, today's build at its higher version is applied over it (same path,
      // same id), as Chromium applies a store's update. Today's background answers at once: no
      // restart, so the popup's first open lists everything and stays open.
      browser = await launchProfile(profile, folder);
      await expect
        .poll(() =>
          backgroundVersion(browser as ProfileBrowser).then(
            () => true,
            () => false,
          ),
        )
        .toBe(true);
      expect(await backgroundVersion(browser)).toBe(release.answersBuild ? release.version : '');
      expect(await updateInPlace(browser, TODAY, folder)).toBe(unpackedExtensionId(folder));
      await expect.poll(() => backgroundVersion(browser as ProfileBrowser).catch(() => '')).toBe(version);

      popup = await popupTab(browser);
      const listed = await historyByUrl(popup, 6);
      await expect(popup.locator('#error')).toBeHidden();
      expect(popup.isClosed()).toBe(false);
      expect(await restartsAsked(browser)).toBeNull();
      for (const url of Object.values(local)) expect(listed.get(url)?.status).toBe('local');
      expect(listed.get(synced)).toMatchObject({ status: 'synced', shortUrl: syncedShort });
      if (release.labels) expect(listed.get(synced)).toMatchObject({ ...labels, locked: true });
      expect(decodeURI(listed.get(local.hangul)?.shortUrl ?? '')).toContain('/업데이트/');
      expect(listed.get(local.chosen)?.shortUrl).toContain('/release-kept/');
      expect(listed.get(local.hangul)?.clicks).toBe(release.localClicks ? '2 clicks' : '0 clicks');

      // The settings the release saved.
      const kept = await browser.context.newPage();
      await kept.goto(`${browser.origin}/options.html`);
      await expect(kept.locator('#server-url')).toHaveValue(serverUrl);
      await expect(kept.locator('#api-key')).toHaveValue(key);
      await expect(kept.locator('#default-expire')).toHaveValue('1month');
      await expect(kept.locator('#auto-copy')).not.toBeChecked();

      // Every local short URL still opens its page, and the opening counts on top of the release's.
      const again = await browser.context.newPage();
      for (const [url, item] of [...listed].filter(([, entry]) => entry.status === 'local')) {
        await again.goto(item.shortUrl);
        await expect(again).toHaveURL(url);
      }
      const hangulClicks = release.localClicks ? '3 clicks' : '1 click';
      await expect
        .poll(async () => {
          await popup.reload();
          const now = await historyByUrl(popup, 6);
          return [now.get(local.hangul)?.clicks, release.keys ? now.get(synced)?.clicks : 'no key'];
        })
        .toEqual([hangulClicks, release.keys ? '1 click' : 'no key']);

      // A later start (the folder now holds today's build) runs today's background, with no restart asked.
      await browser.close();
      browser = await launchProfile(profile, folder);
      await expect.poll(() => backgroundVersion(browser as ProfileBrowser).catch(() => '')).toBe(version);
      popup = await popupTab(browser);
      await expect(popup.locator('#history .history-item')).toHaveCount(6);
      expect(popup.isClosed()).toBe(false);
      expect(await restartsAsked(browser)).toBeNull();
    });
  });
}
