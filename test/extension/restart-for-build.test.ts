import { describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { BUILD_ID } from '../../extension/build-id.js';
import { restartForBuild } from '../../extension/pages/restart-for-build.js';
import { type ApiReply, createBackgroundClient } from '../../extension/service/background-api.js';

// An update in place leaves Chromium running the earlier build's service worker: a page finds it
// by the build its replies name (none before builds said so) and restarts the extension once.

describe('a background of another build', () => {
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

  it('reloads the extension once per build, so a background that stays old is not restarted forever', async () => {
    const reload = vi.spyOn(browser.runtime, 'reload').mockImplementation(() => undefined);
    expect(await restartForBuild()).toBe(true);
    expect(await restartForBuild()).toBe(false);
    expect(reload).toHaveBeenCalledOnce();
    expect(await browser.storage.local.get('restartedForBuild')).toEqual({ restartedForBuild: BUILD_ID });
  });
});
