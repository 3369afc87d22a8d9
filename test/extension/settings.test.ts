import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { DEFAULT_SETTINGS, loadSettings, normalizeServerUrl, settingsItem } from '../../extension/settings.js';

describe('normalizeServerUrl', () => {
  it.each([
    ['https://sho.rt', 'https://sho.rt'],
    ['  https://sho.rt  ', 'https://sho.rt'],
    ['https://sho.rt/', 'https://sho.rt'],
    ['https://sho.rt///', 'https://sho.rt'],
    ['http://localhost:8080/', 'http://localhost:8080'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['HTTPS://Sho.RT/', 'https://sho.rt'],
    ['https://example.com/linklet/', 'https://example.com/linklet'],
    ['https://sho.rt:443/', 'https://sho.rt'],
    ['https://한글.kr', 'https://xn--bj0bj06e.kr'],
    ['', ''],
    ['   ', ''],
  ])('%j → %j', (input, expected) => {
    expect(normalizeServerUrl(input)).toBe(expected);
  });

  it.each([
    ['no scheme', 'sho.rt', /full URL/],
    ['garbage', 'not a url', /full URL/],
    ['a bare scheme', 'https://', /full URL/],
    ['ftp', 'ftp://sho.rt', /http:\/\/ or https:\/\//],
    ['javascript:', 'javascript:alert(1)', /http:\/\/ or https:\/\//],
    ['an extension page', 'chrome-extension://abc/popup.html', /http:\/\/ or https:\/\//],
    ['a query', 'https://sho.rt/?key=1', /query or fragment/],
    ['a fragment', 'https://sho.rt/#top', /query or fragment/],
    ['an empty query', 'https://sho.rt/?', /query or fragment/],
    ['an empty fragment', 'https://sho.rt#', /query or fragment/],
    ['credentials', 'https://me:secret@sho.rt', /user name or password/],
    ['a user name', 'https://me@sho.rt/', /user name or password/],
  ])('refuses %s (%j)', (_, input, message) => {
    expect(() => normalizeServerUrl(input)).toThrow(message);
  });
});

describe('loadSettings', () => {
  it('gives the defaults when nothing was saved', async () => {
    expect(await loadSettings()).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS).toEqual({ serverUrl: '', apiKey: '', defaultExpire: '1week', autoCopy: true });
  });

  it('fills what an older version did not save from the defaults', async () => {
    await fakeBrowser.storage.local.set({ settings: { serverUrl: 'https://sho.rt' } });
    expect(await loadSettings()).toEqual({
      serverUrl: 'https://sho.rt',
      apiKey: '',
      defaultExpire: '1week',
      autoCopy: true,
    });
  });

  it('reads what the options page saved', async () => {
    const saved = { serverUrl: 'https://sho.rt', apiKey: 'lk_secret', defaultExpire: '24h', autoCopy: false } as const;
    await settingsItem.setValue(saved);
    expect(await fakeBrowser.storage.local.get('settings')).toEqual({ settings: saved });
    expect(await loadSettings()).toEqual(saved);
  });

  it('keeps the API key in storage.local only, never in storage.sync (it would leave this browser)', async () => {
    await settingsItem.setValue({ ...DEFAULT_SETTINGS, serverUrl: 'https://sho.rt', apiKey: 'lk_secret' });
    expect(await fakeBrowser.storage.sync.get(null)).toEqual({});
    expect(JSON.stringify(await fakeBrowser.storage.local.get(null))).toContain('lk_secret');
  });
});
