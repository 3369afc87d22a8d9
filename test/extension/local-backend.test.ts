import { describe, expect, it, vi } from 'vitest';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { createLocalBackend } from '../../extension/backend/create-local-backend.js';
import { isBackendPath, localBase, openPageBase, routeToHandler } from '../../extension/backend/local-backend.js';

describe('isBackendPath', () => {
  it.each([
    ['/api/v1/shorten', true],
    ['/api/v1/openapi.json', true],
    ['/api/unknown', true],
    ['/api.php', true],
    ['/health', true],
    ['/abc123', true],
    ['/한글', true],
    ['/%ED%95%9C%EA%B8%80', true],
    ['/a-b_c', true],
    ['/popup.html', false],
    ['/options.html', false],
    ['/open.html', false],
    ['/background.js', false],
    ['/chunks/x.js', false],
    ['/icon/16.png', false],
    ['/_locales/en/messages.json', false],
    ['/manifest.json', false],
    ['/', false],
  ])('%s → %s', (pathname, expected) => {
    expect(isBackendPath(pathname)).toBe(expected);
  });
});

describe('the local backend', () => {
  it('lives at the extension origin and makes short URLs that open through open.html', () => {
    expect(localBase()).toBe('chrome-extension://test-extension-id');
    expect(openPageBase()).toBe('chrome-extension://test-extension-id/open.html#');
  });

  it('routes requests for its origin to the handler and everything else to the fallback', async () => {
    const fallback = vi.fn(async () => new Response('network'));
    const fetchLike = routeToHandler(createLocalBackend(createMemoryLinkStore()), localBase(), fallback);

    const health = await fetchLike(`${localBase()}/health`);
    expect(await health.json()).toEqual({ status: 'ok' });
    const created = await fetchLike(`${localBase()}/api/v1/shorten`, {
      method: 'POST',
      body: JSON.stringify({ original_url: 'https://example.com/', custom_code: 'home' }),
    });
    expect(created.status).toBe(201);
    expect((await created.json()).data.short_url).toBe(`${openPageBase()}/home/`);
    expect(fallback).not.toHaveBeenCalled();

    expect(await (await fetchLike('https://sho.rt/api/v1/shorten')).text()).toBe('network');
    expect(fallback).toHaveBeenCalledWith('https://sho.rt/api/v1/shorten', undefined);
  });
});
