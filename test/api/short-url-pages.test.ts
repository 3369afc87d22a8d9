import { describe, expect, it } from 'vitest';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { DAY, makeHandler, START } from './make-handler.js';

// The pages a browser gets for a short URL that leads nowhere: in the visitor's language, with
// the date as people write it, the right reason, and every piece of the address escaped.

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const EXPIRES = Date.UTC(2026, 1, 25, 10, 0); // 25 Feb 2026, 10:00 UTC, after START

/** A handler whose store holds `soon` (expires at EXPIRES) and `off` (turned off by its owner). */
async function appWithLinks(timeZone?: string) {
  const store = createMemoryLinkStore();
  const link = { originalUrl: 'https://example.com/a', createdAt: START, expiresAt: EXPIRES };
  await store.create({ ...link, code: 'soon', codeKey: 'soon' }, START);
  await store.create({ ...link, code: 'off', codeKey: 'off', disabled: true }, START);
  return makeHandler({ store, ...(timeZone && { timeZone }) });
}

const page = async (app: ReturnType<typeof makeHandler>, path: string, language?: string) => {
  const headers: Record<string, string> = { Accept: BROWSER };
  if (language !== undefined) headers['Accept-Language'] = language;
  const response = await app.fetch(path, { headers });
  return { response, html: await response.text() };
};

describe('short-URL pages speak the visitor language', () => {
  it.each([
    [undefined, 'en'],
    ['en-US,en;q=0.9', 'en'],
    ['ko-KR,ko;q=0.9,en-US;q=0.8,en;q=0.7', 'ko'],
    ['KO', 'ko'],
    ['en;q=0.5, ko;q=0.8', 'ko'], // q-values, not order, decide
    ['ko;q=0.5, en', 'en'],
    ['ko;q=0, en;q=0.1', 'en'], // q=0: "not Korean"
    ['fr-FR,fr;q=0.9,de;q=0.8', 'en'], // a language the pages do not speak: English
    ['fr, ko;q=0.3', 'ko'],
    ['ko;q=oops', 'en'], // an unreadable q is not a wish
  ])('Accept-Language %s gets %s, said in Content-Language and html lang', async (header, language) => {
    const { response, html } = await page(makeHandler(), '/nothing', header);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-language')).toBe(language);
    expect(response.headers.get('vary')).toBe('Accept, Accept-Language');
    expect(html).toContain(`<html lang="${language}">`);
    expect(html).toContain(language === 'ko' ? '이 주소에는 링크가 없습니다' : 'There is no link here');
  });
});

describe('short-URL pages say what happened', () => {
  it.each([
    ['en', '/soon', 410, ['This link has expired', '25 Feb 2026, 10:00 UTC']],
    ['ko', '/soon', 410, ['만료된 링크입니다', '2026년 2월 25일 오전 10:00 (UTC)']],
    ['en', '/off', 410, ['This link was turned off by its owner']],
    ['ko', '/off/', 410, ['소유자가 사용을 중지한 링크입니다']],
    ['en', '/nothing', 404, ['There is no link here', 'Check it for a typo']],
  ])('%s %s: %i with %o', async (language, path, status, words) => {
    const app = await appWithLinks();
    app.clock.now = path === '/soon' ? EXPIRES + DAY : START;
    const { response, html } = await page(app, path, language);
    expect(response.status).toBe(status);
    for (const word of words) expect(html).toContain(word);
    expect(html).toContain('<strong>Linklet</strong>');
    expect(html).toContain('<a href="/">');
    expect(html).toContain('<link rel="icon" href="/favicon.svg"');
    // No raw ISO timestamp, and a turned-off link never says it expired.
    expect(html).not.toMatch(/\d{4}-\d\d-\d\dT/);
    if (path !== '/soon') expect(html).not.toMatch(/expired|만료/);
  });

  it('writes the expiry in the server time zone and names it', async () => {
    const app = await appWithLinks('Asia/Seoul');
    app.clock.now = EXPIRES + DAY;
    expect((await page(app, '/soon', 'en')).html).toContain('25 Feb 2026, 19:00 GMT+9');
    expect((await page(app, '/soon', 'ko')).html).toContain('2026년 2월 25일 오후 7:00 (GMT+9)');
  });

  it('shows the address as people read it, Hangul decoded, and nothing else of the request', async () => {
    const { html } = await page(makeHandler(), `/${encodeURIComponent('없는코드')}/`, 'ko');
    expect(html).toContain('<code>/없는코드</code>');
  });

  it('escapes the address: a code is user input', async () => {
    const path = `/${encodeURIComponent('<script>alert("x")</script>&\'')}`;
    const { response, html } = await page(makeHandler(), path);
    expect(response.status).toBe(404);
    expect(html).not.toContain('<script');
    expect(html).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;&#38;&#39;');
  });

  // The pages' fixed parts, the last Accept-Language and each formatted moment are kept between
  // answers: no answer may carry anything of the one before it.
  it('answers each request from its own headers and link, whatever was answered before', async () => {
    const seoul = await appWithLinks('Asia/Seoul');
    const utc = await appWithLinks();
    for (const app of [seoul, utc]) app.clock.now = EXPIRES + DAY;
    const before = await appWithLinks(); // `off` not expired yet: turned off is what it says
    for (let round = 0; round < 2; round++) {
      expect((await page(seoul, '/soon', 'ko')).html).toContain('2026년 2월 25일 오후 7:00 (GMT+9)');
      expect((await page(utc, '/soon', 'ko')).html).toContain('2026년 2월 25일 오전 10:00 (UTC)');
      expect((await page(utc, '/soon', 'en')).html).toContain('25 Feb 2026, 10:00 UTC');
      const english = await page(before, '/off', 'en-US,en;q=0.9');
      expect(english.html).toContain('This link was turned off by its owner');
      expect(english.html).toContain('<code>/off</code>');
      expect(english.html).not.toMatch(/만료|soon/);
      const korean = await page(before, `/${encodeURIComponent('없는코드')}`, 'ko-KR,ko;q=0.9');
      expect(korean.response.headers.get('content-language')).toBe('ko');
      expect(korean.html).toContain('<code>/없는코드</code>');
      expect(korean.html).not.toMatch(/\/off|This link/);
    }
  });

  it('keeps JSON clients on the envelope, without a language', async () => {
    const app = await appWithLinks();
    const response = await app.fetch('/off', { headers: { 'Accept-Language': 'ko' } });
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('content-language')).toBeNull();
    expect(await response.json()).toEqual({ status: 'error', message: 'This short link was disabled by its owner.' });
  });
});

describe('the icon', () => {
  it('is served at /favicon.svg as SVG, for GET and HEAD only', async () => {
    const app = makeHandler();
    const response = await app.fetch('/favicon.svg');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    expect(await response.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect((await app.fetch('/favicon.svg', { method: 'HEAD' })).status).toBe(200);
    const posted = await app.fetch('/favicon.svg', { method: 'POST' });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET, HEAD');
  });

  it.each(['favicon.svg', 'FAVICON.SVG', 'favicon.ico', 'favicon'])('%s is refused as a custom code', async (code) => {
    const app = makeHandler();
    const made = await app.post('/api/v1/shorten', { original_url: 'https://example.com', custom_code: code });
    // A dot is never in a code; `favicon` alone stays an ordinary code.
    expect(made.status).toBe(code === 'favicon' ? 201 : 400);
  });
});
