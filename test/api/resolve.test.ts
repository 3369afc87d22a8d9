import { describe, expect, it } from 'vitest';
import { DAY, HOUR, json, makeHandler, methodsOf, SECOND } from './make-handler.js';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** A handler holding `promo` (24h) → https://example.com/landing, and `한글` (1week) → a Unicode URL. */
async function appWithLinks() {
  const app = makeHandler();
  const made = [
    await app.post('/api.php', {
      original_url: 'https://example.com/landing?a=1',
      custom_code: 'Promo',
      expire_duration: '24h',
    }),
    await app.post('/api.php', { original_url: 'https://bücher.example/straße/한글?q=ä#frag', custom_code: '한글' }),
  ];
  expect(made.map((response) => response.status)).toEqual([200, 200]);
  return app;
}

function maxAgeOf(response: Response): number {
  const header = response.headers.get('cache-control') ?? '';
  const match = /(?:^|[,\s])max-age=(\d+)(?:$|[,\s])/.exec(header);
  if (!match?.[1]) throw new Error(`no max-age in Cache-Control '${header}'`);
  return Number(match[1]);
}

describe('GET and HEAD /{code}: active links', () => {
  it.each([
    ['GET', '/Promo'],
    ['GET', '/Promo/'],
    ['GET', '/promo'],
    ['GET', '/PROMO/'],
    ['HEAD', '/Promo'],
    ['HEAD', '/pRoMo/'],
  ])('%s %s redirects 302 to the original URL', async (method, path) => {
    const app = await appWithLinks();
    const response = await app.fetch(path, { method });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('https://example.com/landing?a=1');
    expect(await response.text()).toBe('');
  });

  it.each([
    ['the raw Hangul path', '/한글'],
    ['the percent-encoded Hangul path', `/${encodeURIComponent('한글')}`],
    ['the percent-encoded Hangul path with a slash', `/${encodeURIComponent('한글')}/`],
    ['the percent-encoded NFD path', `/${encodeURIComponent('한글'.normalize('NFD'))}`],
    ['the percent-encoded NFD path with a slash', `/${encodeURIComponent('한글'.normalize('NFD'))}/`],
    ['lower-case percent escapes', `/${encodeURIComponent('한글').toLowerCase()}`],
  ])('resolves %s, redirecting to the ASCII serialization of the URL', async (_, path) => {
    const app = await appWithLinks();
    for (const method of ['GET', 'HEAD']) {
      const response = await app.fetch(path, { method });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe(
        'https://xn--bcher-kva.example/stra%C3%9Fe/%ED%95%9C%EA%B8%80?q=%C3%A4#frag',
      );
    }
  });

  it('resolves a code submitted in NFD by its NFC path', async () => {
    const app = makeHandler();
    await app.post('/api/v1/shorten', { original_url: 'https://example.com/', custom_code: '\u1112\u1161\u11ab' });
    expect((await app.fetch(`/${encodeURIComponent('한')}`)).status).toBe(302);
    expect((await app.fetch(`/${encodeURIComponent('\u1112\u1161\u11ab')}/`)).status).toBe(302);
  });

  it('sends a redirect the referrer policy alone of the security headers: it has no body to protect', async () => {
    const app = await appWithLinks();
    for (const method of ['GET', 'HEAD']) {
      const response = await app.fetch('/promo', { method });
      expect(response.status).toBe(302);
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('x-content-type-options')).toBeNull();
      expect(response.headers.get('content-security-policy')).toBeNull();
    }
    // Any answer with a body still carries all three.
    const missing = await app.fetch('/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-content-type-options')).toBe('nosniff');
    expect(missing.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
    expect(missing.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('still redirects a browser', async () => {
    const app = await appWithLinks();
    const response = await app.fetch('/promo', { headers: { Accept: BROWSER_ACCEPT } });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('https://example.com/landing?a=1');
  });

  it('lets a browser keep the redirect a minute by default, and never past the link', async () => {
    const app = await appWithLinks();
    expect((await app.fetch('/promo')).headers.get('cache-control')).toBe('private, max-age=60');
    expect(maxAgeOf(await app.fetch('/promo', { method: 'HEAD' }))).toBe(60);

    app.clock.advance(DAY - 30 * SECOND - 500);
    expect(maxAgeOf(await app.fetch('/promo/'))).toBe(30);

    app.clock.advance(29 * SECOND);
    expect(maxAgeOf(await app.fetch('/promo/'))).toBe(1);

    app.clock.advance(1499);
    const lastMoment = await app.fetch('/promo');
    expect(lastMoment.status).toBe(302);
    expect(maxAgeOf(lastMoment)).toBe(0);
  });

  it('takes the longest a browser keeps a redirect from redirectCacheSeconds; 0 sends no-store', async () => {
    const hour = makeHandler({ redirectCacheSeconds: 3600 });
    await hour.post('/api.php', { original_url: 'https://example.com/', custom_code: 'day', expire_duration: '24h' });
    expect((await hour.fetch('/day')).headers.get('cache-control')).toBe('private, max-age=3600');
    hour.clock.advance(DAY - HOUR / 2);
    expect(maxAgeOf(await hour.fetch('/day'))).toBe(1800);

    const never = makeHandler({ redirectCacheSeconds: 0 });
    await never.post('/api.php', { original_url: 'https://example.com/', custom_code: 'day' });
    for (const method of ['GET', 'HEAD']) {
      const response = await never.fetch('/day', { method });
      expect(response.status).toBe(302);
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('never lets a shared cache outlive the link', async () => {
    const app = await appWithLinks();
    const header = (await app.fetch('/promo')).headers.get('cache-control') ?? '';
    expect(header).not.toMatch(/s-maxage|immutable|stale-while-revalidate|stale-if-error/);
  });

  it('counts max-age for a 1month link to its clamped end', async () => {
    const app = makeHandler({ redirectCacheSeconds: 31 * 86_400 });
    await app.post('/api.php', {
      original_url: 'https://example.com/',
      custom_code: 'month',
      expire_duration: '1month',
    });
    app.clock.advance(10 * SECOND);
    expect(maxAgeOf(await app.fetch('/month'))).toBe(28 * 86_400 - 10);
  });
});

describe('GET /{code}: unknown and expired', () => {
  it.each(['/nothing', '/nothing/', '/한글없음'])('answers 404 with the JSON envelope for %s', async (path) => {
    const response = await (await appWithLinks()).fetch(path);
    expect(response.status).toBe(404);
    expect(response.headers.get('location')).toBeNull();
    expect(await json(response)).toEqual({ status: 'error', message: expect.any(String) });
  });

  it('answers 404 with a small HTML page to a browser', async () => {
    const response = await (await appWithLinks()).fetch('/nothing', { headers: { Accept: BROWSER_ACCEPT } });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await response.text();
    expect(page).toMatch(/^<!doctype html>/i);
    expect(page).toContain('There is no link here');
  });

  it.each([
    ['text/html;q=0, application/json', 'application/json'],
    ['application/json, text/html;q=0.5', 'application/json'],
    ['text/html;q=0.4, */*;q=0.5', 'application/json'],
    ['application/json;q=0.5, text/html', 'text/html; charset=UTF-8'],
    ['TEXT/HTML; Q=0.9, application/*;q=0.8', 'text/html; charset=UTF-8'],
  ])('honours the q-values of Accept: %s gets %s', async (accept, contentType) => {
    const response = await (await appWithLinks()).fetch('/nothing', { headers: { Accept: accept } });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe(contentType);
  });

  it('answers 410 once the link expires (now = expiration), JSON for non-browsers', async () => {
    const app = await appWithLinks();
    app.clock.advance(DAY);
    const response = await app.fetch('/promo');
    expect(response.status).toBe(410);
    expect(response.headers.get('location')).toBeNull();
    const body = await json(response);
    expect(body).toEqual({ status: 'error', message: expect.stringMatching(/expired/i) });
  });

  it('answers 410 with an HTML page to a browser', async () => {
    const app = await appWithLinks();
    app.clock.advance(DAY + HOUR);
    const response = await app.fetch('/Promo/', { headers: { Accept: BROWSER_ACCEPT } });
    expect(response.status).toBe(410);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toMatch(/expired/i);
  });

  it.each([
    ['api2', 404],
    ['apiary', 410],
  ])('gives a browser the HTML page for code %s whose path starts with /api (%i)', async (code, status) => {
    const app = makeHandler();
    if (status === 410) {
      await app.post('/api.php', { original_url: 'https://example.com/', custom_code: code, expire_duration: '24h' });
      app.clock.advance(DAY);
    }
    const response = await app.fetch(`/${code}`, { headers: { Accept: BROWSER_ACCEPT } });
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it.each(['/%E0%A4%A', '/%ZZ', '/%C3', '/%FF%FE', '/abc%', '/%C3%28', '/%ED%A0%80'])(
    'answers 404, not 500, for the malformed encoding %s',
    async (path) => {
      const app = makeHandler();
      for (const accept of ['application/json', BROWSER_ACCEPT]) {
        const response = await app.fetch(path, { headers: { Accept: accept } });
        expect(response.status).toBe(404);
      }
      expect(await json(await app.fetch(path))).toEqual({ status: 'error', message: expect.any(String) });
    },
  );

  it.each(['/promo/extra', '/promo/extra/', '/a/b/c', '/promo//', '//promo', '/a%2Fb'])(
    'answers 404 for the path %s that is not a single code segment',
    async (path) => {
      const app = await appWithLinks();
      const response = await app.fetch(path);
      expect(response.status).toBe(404);
      expect(response.headers.get('location')).toBeNull();
    },
  );

  it('answers 404 for a segment longer than any code', async () => {
    const app = makeHandler();
    expect((await app.fetch(`/${'a'.repeat(65)}`)).status).toBe(404);
    expect((await app.fetch(`/${'가'.repeat(5000)}`)).status).toBe(404);
  });

  it.each([
    ['an active link', 0, 302],
    ['an unknown code', null, 404],
    ['an expired link', DAY, 410],
  ])('answers HEAD on %s without a body', async (_, advance, status) => {
    const app = await appWithLinks();
    if (advance !== null) app.clock.advance(advance);
    const path = advance === null ? '/nothing' : '/promo';
    for (const accept of ['application/json', BROWSER_ACCEPT]) {
      const response = await app.fetch(path, { method: 'HEAD', headers: { Accept: accept } });
      expect(response.status).toBe(status);
      expect(await response.text()).toBe('');
    }
  });
});

describe('other methods on a short URL', () => {
  it.each([
    ['POST', '/promo'],
    ['PUT', '/promo'],
    ['DELETE', '/promo'],
    ['PATCH', '/promo/'],
    ['POST', `/${encodeURIComponent('한글')}/`],
  ])('%s %s answers 405 with Allow: GET, HEAD', async (method, path) => {
    const app = await appWithLinks();
    const response = await app.fetch(path, { method, ...(method === 'POST' && { body: '{}' }) });
    expect(response.status).toBe(405);
    expect(methodsOf(response.headers.get('allow'))).toEqual(['GET', 'HEAD']);
    expect(await json(response)).toEqual({ status: 'error', message: expect.stringContaining(method) });
    // The link is untouched.
    expect((await app.fetch(path)).status).toBe(302);
  });
});
