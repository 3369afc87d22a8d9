import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_URL_LENGTH, parseOriginalUrl } from '../../core/rules/url.js';
import { expectInvalid } from './expect-error.js';

const rules = { maxLength: 2048, ownHosts: ['sho.rt'] };
const parse = (raw: string) => parseOriginalUrl(raw, rules);

const REQUIRED = /original_url is required/;
const ABSOLUTE = /original_url must be an absolute http or https URL/;
const SCHEME = /original_url must use http or https/;
const WHITESPACE = /original_url must not contain whitespace or control characters/;
const CREDENTIALS = /original_url must not contain user credentials/;
const OWN_HOST = /original_url must not point at this service/;
const TOO_LONG = /original_url must be at most 2048 characters/;

/** An ASCII URL of exactly `length` characters. */
const urlOfLength = (length: number) => {
  const prefix = 'https://example.com/';
  return prefix + 'a'.repeat(length - prefix.length);
};

describe('parseOriginalUrl: accepted URLs come back exactly as submitted', () => {
  it.each([
    ['http with a host only', 'http://example.com'],
    ['https with a path', 'https://example.com/page'],
    ['query and fragment', 'https://example.com/search?q=1&r=two#part'],
    ['a port', 'https://example.com:8443/x'],
    ['an IP host and port', 'http://127.0.0.1:3000/'],
    ['an IDN host with a Hangul path, query and fragment', 'https://한국.example/경로?검색=값#조각'],
    ['a punycode host', 'https://xn--3e0b707e.example/'],
    ['a non-ASCII path, not re-serialized', 'https://EXAMPLE.com/ä'],
    ['an upper-case scheme', 'HTTPS://example.com/x'],
    ['a percent-encoded space', 'https://example.com/a%20b'],
    ['an @ in the path (not credentials)', 'https://example.com/@user'],
    ['an @ in the query (not credentials)', 'https://example.com/?mail=a@b.example'],
    ['the own host on another port (a different service)', 'https://sho.rt:8443/x'],
    ['another host that ends like the own host', 'https://notsho.rt/x'],
  ])('accepts %s', (_name, raw) => {
    expect(parse(raw)).toBe(raw);
  });

  it.each([
    ['spaces around a non-ASCII URL', ' https://EXAMPLE.com/ä ', 'https://EXAMPLE.com/ä'],
    ['tab before, newline after', '\thttps://example.com/x\n', 'https://example.com/x'],
    ['CRLF after', 'https://example.com/x\r\n', 'https://example.com/x'],
    ['no-break spaces around', '\u00A0https://example.com/x\u00A0', 'https://example.com/x'],
    ['no trailing slash is added', '  https://example.com  ', 'https://example.com'],
  ])('trims surrounding whitespace: %s', (_name, raw, expected) => {
    expect(parse(raw)).toBe(expected);
  });
});

describe('parseOriginalUrl: refused URLs (400)', () => {
  it.each([
    ['the empty string', '', REQUIRED],
    ['only whitespace', ' \t\n ', REQUIRED],
    ['a relative path', '/relative/path', ABSOLUTE],
    ['a host without scheme', 'example.com/path', ABSOLUTE],
    ['a scheme-relative URL', '//example.com/x', ABSOLUTE],
    ['https: without slashes', 'https:example.com', ABSOLUTE],
    ['https: with one slash', 'https:/example.com', ABSOLUTE],
    ['a scheme with no host', 'https://', ABSOLUTE],
    ['javascript:', 'javascript:alert(1)', SCHEME],
    ['JavaScript: in mixed case', 'JavaScript:alert(1)', SCHEME],
    ['data:', 'data:text/html,<b>hi</b>', SCHEME],
    ['file:', 'file:///etc/passwd', SCHEME],
    ['ftp:', 'ftp://example.com/file', SCHEME],
    ['mailto:', 'mailto:someone@example.com', SCHEME],
    ['a space in the path', 'https://EXAMPLE.com/a b', WHITESPACE],
    ['a space in the host', 'https://exa mple.com/', WHITESPACE],
    ['a tab inside', 'https://example.com/a\tb', WHITESPACE],
    ['a newline inside', 'https://example.com/a\nb', WHITESPACE],
    ['a carriage return inside', 'https://example.com/a\rb', WHITESPACE],
    ['a NUL inside', 'https://example.com/a\u0000b', WHITESPACE],
    ['a DEL inside', 'https://example.com/a\u007Fb', WHITESPACE],
    ['a C1 control inside', 'https://example.com/a\u0085b', WHITESPACE],
    ['a no-break space inside', 'https://example.com/a\u00A0b', WHITESPACE],
    ['a zero-width space inside', 'https://example.com/a\u200Bb', WHITESPACE],
    ['an ideographic space inside', 'https://example.com/a\u3000b', WHITESPACE],
    ['a user name', 'https://a@b.example', CREDENTIALS],
    ['a user name and password', 'https://a:b@b.example', CREDENTIALS],
    ['an empty user name', 'https://@b.example', CREDENTIALS],
    ['an empty user and password', 'https://:@b.example/x', CREDENTIALS],
    ['the own host', 'https://sho.rt/x', OWN_HOST],
    ['the own host in upper case', 'HTTPS://SHO.RT/x', OWN_HOST],
    ['the own host over http', 'http://sho.rt/', OWN_HOST],
    ['the own host with its default port written out', 'https://sho.rt:443/x', OWN_HOST],
  ])('refuses %s', (_name, raw, message) => {
    expectInvalid(() => parse(raw), message);
  });
});

describe('parseOriginalUrl: own hosts with a port', () => {
  const local = { maxLength: 2048, ownHosts: ['localhost:8080'] };

  it('refuses the own host:port', () => {
    expectInvalid(() => parseOriginalUrl('http://localhost:8080/abc', local), OWN_HOST);
  });

  it('accepts the same host on another port', () => {
    expect(parseOriginalUrl('http://localhost:9090/abc', local)).toBe('http://localhost:9090/abc');
  });
});

describe('parseOriginalUrl: maximum length', () => {
  it('defaults to 2048 characters', () => {
    expect(DEFAULT_MAX_URL_LENGTH).toBe(2048);
  });

  it('accepts a URL of exactly the maximum length', () => {
    const url = urlOfLength(2048);
    expect(url).toHaveLength(2048);
    expect(parse(url)).toBe(url);
  });

  it('refuses a URL one character over the maximum', () => {
    expectInvalid(() => parse(urlOfLength(2049)), TOO_LONG);
  });

  it('measures the length after trimming', () => {
    const url = urlOfLength(2048);
    expect(parse(`  ${url}  `)).toBe(url);
  });

  it('counts the URL as the redirect sends it: percent-encoded path, punycode host', () => {
    // 320 characters as typed, 2,720 once percent-encoded (9 per Hangul syllable).
    const hangulPath = `https://example.com/${'가'.repeat(300)}`;
    expect(new URL(hangulPath).href).toHaveLength(2720);
    expectInvalid(() => parse(hangulPath), /at most 2048 characters long in its ASCII form .*; it has 2720\./);
    const hangulHost = 'https://한국.com/'; // 15 characters, https://xn--3e0b707e.com/ in ASCII (25)
    expect(new URL(hangulHost).href).toHaveLength(25);
    expectInvalid(() => parseOriginalUrl(hangulHost, { maxLength: 20, ownHosts: [] }), /in its ASCII form/);
    // Exactly at the limit in ASCII form: 20 + 225 × 9 + 3 = 2048.
    const atLimit = `https://example.com/${'가'.repeat(225)}abc`;
    expect(new URL(atLimit).href).toHaveLength(2048);
    expect(parse(atLimit)).toBe(atLimit);
    expectInvalid(() => parse(`${atLimit}d`), /in its ASCII form/);
  });

  it('follows the configured maximum', () => {
    const short = { maxLength: 30, ownHosts: [] };
    expect(parseOriginalUrl(urlOfLength(30), short)).toBe(urlOfLength(30));
    expectInvalid(() => parseOriginalUrl(urlOfLength(31), short), /at most 30 characters/);
  });
});

describe('parseOriginalUrl: private targets (BLOCK_PRIVATE_TARGETS)', () => {
  const guarded = { ...rules, blockPrivateTargets: true };
  const PRIVATE = /must not point at a private, loopback or link-local address/;

  it.each([
    'http://localhost/admin',
    'http://LOCALHOST./',
    'http://app.localhost:3000/',
    'http://127.0.0.1/',
    'http://127.1/', // the parser's 127.0.0.1
    'http://0x7f000001/',
    'http://2130706433/',
    'http://0/',
    'http://10.1.2.3:8080/x',
    'http://100.64.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://172.16.0.1/',
    'http://172.31.255.255/',
    'http://192.168.1.1/router',
    'http://[::1]/',
    'http://[::]/',
    'http://[fd00::1]/',
    'http://[fc00::abcd]/',
    'http://[fe80::1]/',
    'http://[::ffff:192.168.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::10.0.0.1]/',
  ])('refuses %s', (url) => {
    expectInvalid(() => parseOriginalUrl(url, guarded), PRIVATE);
  });

  it.each([
    'https://example.com/',
    'http://172.32.0.1/',
    'http://172.15.255.255/',
    'http://100.128.0.1/',
    'http://8.8.8.8/',
    'http://[2001:db8::1]/',
    'http://[::ffff:8.8.8.8]/',
    'http://localhost.example.com/',
    'http://10.example/',
  ])('accepts the public %s', (url) => {
    expect(parseOriginalUrl(url, guarded)).toBe(url);
  });

  it('is off unless asked for (the extension links to anything the browser can open)', () => {
    expect(parse('http://192.168.1.1/router')).toBe('http://192.168.1.1/router');
    expect(parse('http://localhost:3000/')).toBe('http://localhost:3000/');
  });
});
