import { describe, expect, it } from 'vitest';
import { isLocalHost, withServerScheme } from '../../extension/server/server-address.js';
import { normalizeServerUrl } from '../../extension/settings.js';

// The options' server field completes an address typed without a scheme (docs/extension.md):
// plain http on this computer and the local network, https everywhere else.

describe('withServerScheme', () => {
  it.each([
    ['localhost:8080', 'http://localhost:8080'],
    ['LOCALHOST:8080/', 'http://LOCALHOST:8080/'],
    ['linklet.localhost', 'http://linklet.localhost'],
    ['127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['192.168.0.7', 'http://192.168.0.7'],
    ['[::1]:8080', 'http://[::1]:8080'],
    ['nas.local:8080', 'http://nas.local:8080'],
    ['//localhost:8080', 'http://localhost:8080'],
    ['sho.rt', 'https://sho.rt'],
    [' sho.rt/ ', 'https://sho.rt/'],
    ['//sho.rt', 'https://sho.rt'],
    ['local.example.com', 'https://local.example.com'],
    ['localhost.example.com:8080', 'https://localhost.example.com:8080'],
    ['http://sho.rt', 'http://sho.rt'],
    ['https://localhost:8080', 'https://localhost:8080'],
    ['ftp://sho.rt', 'ftp://sho.rt'],
    ['', ''],
  ])('%s → %s', (typed, completed) => {
    expect(withServerScheme(typed)).toBe(completed);
  });

  it('gives normalizeServerUrl a base URL it accepts for localhost:8080', () => {
    expect(normalizeServerUrl(withServerScheme('localhost:8080'))).toBe('http://localhost:8080');
    expect(normalizeServerUrl(withServerScheme('sho.rt/'))).toBe('https://sho.rt');
    expect(() => normalizeServerUrl(withServerScheme('ftp://sho.rt'))).toThrow();
  });

  it('knows the local hosts', () => {
    expect(['localhost', 'a.localhost', 'box.local', 'box.local.', '10.0.0.1', '[fe80::1]'].every(isLocalHost)).toBe(
      true,
    );
    expect(['sho.rt', 'localhost.com', 'local', '1.2.3'].some(isLocalHost)).toBe(false);
  });
});
