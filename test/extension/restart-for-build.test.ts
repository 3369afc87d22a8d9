import { afterEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { BUILD_ID } from '../../extension/build-id.js';
import {
  MAX_RESTARTS_PER_BUILD,
  RESTART_SPACING_MS,
  restartForBuild,
} from '../../extension/pages/restart-for-build.js';
import { createApiAnswerer } from '../../extension/service/api-answerer.js';
import { type ApiReply, type BackgroundApi, createBackgroundClient } from '../../extension/service/background-api.js';

/** A background from a release before 0.2.0: it names no version (all of them were 0.1.0). */
const BEFORE_0_2 = {};

// An unpacked folder replaced in place leaves Chromium running the earlier build's service worker: a
// page finds it by the build its replies name (none before builds said so) and restarts the
// extension when the background's version is another than its own. A store's update brings
// both at one version, so no page restarts it then.

describe('a background of another build', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('restarts the extension when the background answers nothing (a build before the typed API)', async () => {
    const onOtherBuild = vi.fn(async () => true);
    const api = createBackgroundClient(async () => undefined, { onOtherBuild });
    await expect(api.listHistory()).rejects.toThrow('Linklet was updated and is restarting; open it again.');
    expect(onOtherBuild).toHaveBeenCalledOnce();
  });

  it("does not restart when this build's background stopped before it answered (it still names its build)", async () => {
    const onOtherBuild = vi.fn(async () => true);
    const send = vi.fn(async (message: { type: string }) =>
      message.type === 'linklet:build' ? { build: BUILD_ID } : undefined,
    );
    await expect(createBackgroundClient(send, { onOtherBuild }).listHistory()).rejects.toThrow(
      "Linklet's background stopped before it answered",
    );
    expect(onOtherBuild).not.toHaveBeenCalled();
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('restarts it when the reply names no build or another one, and not when it names this one', async () => {
    for (const build of [undefined, 'an-earlier-build']) {
      const reply: ApiReply = { ok: true, value: [], ...(build ? { build } : {}) };
      const onOtherBuild = vi.fn(async () => true);
      await expect(createBackgroundClient(async () => reply, { onOtherBuild }).listHistory()).rejects.toThrow(
        'restarting',
      );
    }
    const onOtherBuild = vi.fn(async () => true);
    const current = createBackgroundClient(async () => ({ ok: true, value: ['kept'], build: BUILD_ID }), {
      onOtherBuild,
    });
    expect(await current.listHistory()).toEqual(['kept']);
    expect(onOtherBuild).not.toHaveBeenCalled();
  });

  it('carries on with the reply once a restart for this build was already asked', async () => {
    const api = createBackgroundClient(async () => ({ ok: true, value: ['old background'] }), {
      onOtherBuild: async () => false,
    });
    expect(await api.listHistory()).toEqual(['old background']);
    const silent = createBackgroundClient(async () => undefined, { onOtherBuild: async () => false });
    await expect(silent.listHistory()).rejects.toThrow("Linklet's background stopped before it answered");
  });

  it('reloads the extension again for a restart that was lost, spaced and at most three times a build', async () => {
    const reload = vi.spyOn(browser.runtime, 'reload').mockImplementation(() => undefined);
    await browser.storage.local.set({ restartedForBuild: 'what an earlier build kept' });
    const start = 1_800_000_000_000;
    expect(await restartForBuild(BEFORE_0_2, start)).toBe(true);
    // Pages opened together (or while the restart is under way) ask for one restart, not one each.
    expect(await restartForBuild(BEFORE_0_2, start + 1)).toBe(false);
    expect(await restartForBuild(BEFORE_0_2, start + RESTART_SPACING_MS - 1)).toBe(false);
    expect(reload).toHaveBeenCalledOnce();
    expect(await browser.storage.local.get(['buildRestarts', 'restartedForBuild'])).toEqual({
      buildRestarts: { build: BUILD_ID, count: 1, at: start },
    });
    // The background is still of another build later on: the restart was lost, so it is asked again.
    let at = start;
    for (let restart = 2; restart <= MAX_RESTARTS_PER_BUILD; restart++) {
      at += RESTART_SPACING_MS;
      expect(await restartForBuild(BEFORE_0_2, at)).toBe(true);
    }
    expect(reload).toHaveBeenCalledTimes(MAX_RESTARTS_PER_BUILD);
    // A background that stays old after them is not restarted forever.
    expect(await restartForBuild(BEFORE_0_2, at + 60 * 60_000)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(MAX_RESTARTS_PER_BUILD);
  });

  it("counts a build's restarts afresh when another build asked before it", async () => {
    const reload = vi.spyOn(browser.runtime, 'reload').mockImplementation(() => undefined);
    const at = 1_800_000_000_000;
    await browser.storage.local.set({ buildRestarts: { build: 'an-earlier-build', count: 3, at } });
    expect(await restartForBuild(BEFORE_0_2, at + 1)).toBe(true);
    expect(reload).toHaveBeenCalledOnce();
    expect(await browser.storage.local.get('buildRestarts')).toEqual({
      buildRestarts: { build: BUILD_ID, count: 1, at: at + 1 },
    });
  });

  it('does not restart a background of the same version (a store update brings both; a rebuild in place)', async () => {
    const reload = vi.spyOn(browser.runtime, 'reload').mockImplementation(() => undefined);
    vi.spyOn(browser.runtime, 'getManifest').mockReturnValue({
      manifest_version: 3,
      name: 'Linklet',
      version: '0.2.0',
    });
    const at = 1_800_000_000_000;
    expect(await restartForBuild({ version: '0.2.0' }, at)).toBe(false);
    expect(reload).not.toHaveBeenCalled();
    expect(await browser.storage.local.get('buildRestarts')).toEqual({});
    // Another version (a folder replaced in place under a running worker) still restarts it.
    expect(await restartForBuild({ version: '0.1.9' }, at)).toBe(true);
    expect(reload).toHaveBeenCalledOnce();
  });

  it("passes the version the background's reply names to the page's check", async () => {
    for (const reply of [
      { ok: true, value: [], build: 'an-earlier-build', version: '0.2.0' },
      { ok: true, value: [], build: 'an-earlier-build' },
    ] satisfies ApiReply[]) {
      const onOtherBuild = vi.fn(async () => false);
      expect(await createBackgroundClient(async () => reply, { onOtherBuild }).listHistory()).toEqual([]);
      expect(onOtherBuild).toHaveBeenCalledWith(reply.version === undefined ? {} : { version: '0.2.0' });
    }
  });

  it("names the background's build and manifest version in its replies", async () => {
    vi.spyOn(browser.runtime, 'getManifest').mockReturnValue({
      manifest_version: 3,
      name: 'Linklet',
      version: '0.2.0',
    });
    const answer = createApiAnswerer({ listHistory: async () => ['kept'] } as unknown as BackgroundApi);
    expect(await answer({ type: 'linklet:call', method: 'listHistory', args: [{}] })).toEqual({
      ok: true,
      value: ['kept'],
      build: BUILD_ID,
      version: '0.2.0',
    });
    expect(await answer({ type: 'linklet:build' })).toEqual({ build: BUILD_ID, version: '0.2.0' });
  });
});
