import { describe, expect, it } from 'vitest';
import { ConfigError, isLoopbackHost, loadConfig } from '../../server/process/config.js';
import { openServerWarning } from '../../server/process/open-server-warning.js';

const MiB = 1024 * 1024;

describe('configuration of the cache and of a public server', () => {
  it('caches up to a million links in 128 MiB by default', () => {
    const config = loadConfig({});
    expect(config.cacheEntries).toBe(1_000_000);
    expect(config.cacheMaxBytes).toBe(128 * MiB);
  });

  it.each([
    ['1048576', MiB],
    ['64MiB', 64 * MiB],
    ['64 mib', 64 * MiB],
    ['2048KiB', 2 * MiB],
    ['1GiB', 1024 * MiB],
  ])('reads CACHE_MAX_BYTES=%s', (value, bytes) => {
    expect(loadConfig({ CACHE_MAX_BYTES: value }).cacheMaxBytes).toBe(bytes);
  });

  it.each(['lots', '512KiB', '5GiB', '64MB', '-1'])('refuses CACHE_MAX_BYTES=%s, naming the rule', (value) => {
    expect(() => loadConfig({ CACHE_MAX_BYTES: value })).toThrow(ConfigError);
    expect(() => loadConfig({ CACHE_MAX_BYTES: value })).toThrow(/CACHE_MAX_BYTES: must be a size from 1MiB to 4GiB/);
  });

  it.each([
    [{}, 60],
    [{ REDIRECT_CACHE_SECONDS: '' }, 60],
    [{ REDIRECT_CACHE_SECONDS: '0' }, 0],
    [{ REDIRECT_CACHE_SECONDS: '3600' }, 3600],
    [{ REDIRECT_CACHE_SECONDS: '2678400' }, 2_678_400],
  ])('reads the longest a browser keeps a redirect from %o', (env, seconds) => {
    expect(loadConfig(env).redirectCacheSeconds).toBe(seconds);
  });

  it.each(['-1', '1.5', 'a minute', '60s', '2678401', '1e3'])(
    'refuses REDIRECT_CACHE_SECONDS=%s, naming the rule',
    (value) => {
      expect(() => loadConfig({ REDIRECT_CACHE_SECONDS: value })).toThrow(
        /REDIRECT_CACHE_SECONDS: must be a whole number of seconds from 0 .* to 2678400/,
      );
    },
  );

  it('lets links of the YOURLS and Shlink APIs live a month unless COMPAT_EXPIRE_DURATION says otherwise', () => {
    expect(loadConfig({}).compatExpireDuration).toBe('1month');
    expect(loadConfig({ COMPAT_EXPIRE_DURATION: '' }).compatExpireDuration).toBe('1month');
    expect(loadConfig({ COMPAT_EXPIRE_DURATION: '48h' }).compatExpireDuration).toBe('48h');
    expect(() => loadConfig({ COMPAT_EXPIRE_DURATION: 'forever' })).toThrow(
      /COMPAT_EXPIRE_DURATION: must be one of 24h, 48h, 1week, 1month/,
    );
  });

  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['[::1]', true],
    ['localhost', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.5', false],
    ['sho.rt', false],
  ])('tells whether HOST=%s is loopback (%s)', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });

  it('blocks private targets by default only when HOST is not loopback; BLOCK_PRIVATE_TARGETS decides', () => {
    expect(loadConfig({}).blockPrivateTargets).toBe(false);
    expect(loadConfig({ HOST: '0.0.0.0' }).blockPrivateTargets).toBe(true);
    expect(loadConfig({ HOST: '0.0.0.0', BLOCK_PRIVATE_TARGETS: 'false' }).blockPrivateTargets).toBe(false);
    expect(loadConfig({ HOST: '0.0.0.0', BLOCK_PRIVATE_TARGETS: 'off' }).blockPrivateTargets).toBe(false);
    expect(loadConfig({ BLOCK_PRIVATE_TARGETS: 'true' }).blockPrivateTargets).toBe(true);
    expect(loadConfig({ BLOCK_PRIVATE_TARGETS: '' }).blockPrivateTargets).toBe(false);
    expect(() => loadConfig({ BLOCK_PRIVATE_TARGETS: 'maybe' })).toThrow(
      /BLOCK_PRIVATE_TARGETS: must be true or false/,
    );
  });

  it('warns about an open server beyond loopback, naming API_KEY and RATE_LIMIT_PER_MINUTE', () => {
    const warning = openServerWarning(loadConfig({ HOST: '0.0.0.0' }));
    expect(warning).toMatch(/API_KEY/);
    expect(warning).toMatch(/RATE_LIMIT_PER_MINUTE/);
    expect(openServerWarning(loadConfig({}))).toBeUndefined();
    expect(openServerWarning(loadConfig({ HOST: '0.0.0.0', API_KEY: 'k'.repeat(16) }))).toBeUndefined();
    expect(openServerWarning(loadConfig({ HOST: '0.0.0.0', RATE_LIMIT_PER_MINUTE: '60' }))).toBeUndefined();
  });
});

describe('the import budget', () => {
  it('is 10,000 links a minute while rate limits are on; IMPORT_ROWS_PER_MINUTE alone is refused', () => {
    expect(loadConfig({ RATE_LIMIT_PER_MINUTE: '5' }).importRowsPerMinute).toBe(10_000);
    expect(loadConfig({ RATE_LIMIT_PER_MINUTE: '5', IMPORT_ROWS_PER_MINUTE: '500' }).importRowsPerMinute).toBe(500);
    expect(() => loadConfig({ IMPORT_ROWS_PER_MINUTE: '500' })).toThrow(
      /IMPORT_ROWS_PER_MINUTE: .*RATE_LIMIT_PER_MINUTE/,
    );
    expect(() => loadConfig({ RATE_LIMIT_PER_MINUTE: '5', IMPORT_ROWS_PER_MINUTE: '0' })).toThrow(ConfigError);
  });
});
