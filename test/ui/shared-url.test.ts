import { describe, expect, it } from 'vitest';
import { isShare, sharedUrl } from '../../webapp/shared-url.js';
import { shellKey } from '../../webapp/shell-request.js';

// SPEC "Everyday use", Share from a phone: "Share → Linklet" opens the web app with the URL filled
// in, whichever of the share's fields (`url`, `text`, `title`) the sharing app put it in.
const share = (fields: Record<string, string>) => sharedUrl(new URLSearchParams(fields));

describe('the URL of a share', () => {
  it('takes `url` when it is an http(s) URL', () => {
    expect(share({ url: 'https://example.com/a', text: 'Look https://example.com/b' })).toBe('https://example.com/a');
    expect(share({ url: '  http://example.com/a?b=1#c  ' })).toBe('http://example.com/a?b=1#c');
  });

  it('else finds the first http(s) URL in `text`, as Android apps share it', () => {
    expect(share({ text: 'Look https://example.com/a' })).toBe('https://example.com/a');
    expect(share({ url: '', text: 'Two: https://example.com/a and https://example.com/b' })).toBe(
      'https://example.com/a',
    );
    expect(share({ url: 'not a url', text: 'HTTPS://Example.com/a\nsecond line' })).toBe('HTTPS://Example.com/a');
    expect(share({ title: 'A page', text: '"https://example.com/한글?q=1" from a chat' })).toBe(
      'https://example.com/한글?q=1',
    );
  });

  it('leaves out the punctuation that ends the sentence, not a parenthesis of the URL', () => {
    expect(share({ text: 'See https://example.com/a.' })).toBe('https://example.com/a');
    expect(share({ text: '(see https://example.com/a), then…' })).toBe('https://example.com/a');
    expect(share({ text: 'https://en.wikipedia.org/wiki/Link_(film)!' })).toBe(
      'https://en.wikipedia.org/wiki/Link_(film)',
    );
  });

  it('finds nothing to shorten in text without an http(s) URL', () => {
    expect(share({ text: 'Just words' })).toBeUndefined();
    expect(share({ url: 'ftp://example.com/a', text: 'mailto:a@example.com or javascript:alert(1)' })).toBeUndefined();
    expect(share({ text: 'https://' })).toBeUndefined();
    expect(share({})).toBeUndefined();
  });

  it('tells a share from a plain visit by its fields', () => {
    expect(isShare(new URLSearchParams('text=Look'))).toBe(true);
    expect(isShare(new URLSearchParams('title=&url='))).toBe(true);
    expect(isShare(new URLSearchParams(''))).toBe(false);
    expect(isShare(new URLSearchParams('utm_source=homescreen'))).toBe(false);
  });
});

describe('what the service worker keeps', () => {
  const scope = 'https://sho.rt/links/';
  const files = ['assets/index-AbC123xy.js', 'manifest.webmanifest'];
  const key = (url: string, mode = 'no-cors', method = 'GET') => shellKey({ method, mode, url }, scope, files);

  it('the page, under its own URL whatever the query (a share), and the build files', () => {
    expect(key('https://sho.rt/links/', 'navigate')).toBe(scope);
    expect(key('https://sho.rt/links/?text=Look%20https%3A%2F%2Fexample.com', 'navigate')).toBe(scope);
    expect(key('https://sho.rt/links/assets/index-AbC123xy.js')).toBe('https://sho.rt/links/assets/index-AbC123xy.js');
    expect(key('https://sho.rt/links/manifest.webmanifest', 'cors')).toBe('https://sho.rt/links/manifest.webmanifest');
  });

  it('never a short URL, the API, the JSON at the root, another build, another site or a write', () => {
    for (const url of [
      'https://sho.rt/links/abc',
      'https://sho.rt/links/abc/',
      'https://sho.rt/links/한글/',
      'https://sho.rt/links/api/v1/links',
      'https://sho.rt/links/assets/index-00000000.js',
      'https://sho.rt/links/assets/index-AbC123xy.js?v=2',
      'https://sho.rt/',
      'https://other.example/links/assets/index-AbC123xy.js',
    ]) {
      expect(key(url, 'navigate'), url).toBeUndefined();
      expect(key(url), url).toBeUndefined();
    }
    expect(key('https://sho.rt/links/', 'cors'), 'a fetch of the root is the JSON description').toBeUndefined();
    expect(key('https://sho.rt/links/', 'navigate', 'POST')).toBeUndefined();
  });
});
