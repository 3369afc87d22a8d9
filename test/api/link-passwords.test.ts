import { describe, expect, it } from 'vitest';
import type { RawVisit } from '../../core/management/visits/visits.js';
import { PASSWORD_PAGE_POLICY } from '../../core/passwords/password-page.js';
import { createPbkdf2PasswordHasher } from '../../core/passwords/pbkdf2-password-hasher.js';
import { createScryptPasswordHasher } from '../../server/passwords/scrypt-password-hasher.js';
import { json, makeHandler, SECOND } from './make-handler.js';

// A protected link: created and changed through v1 only, its short URL asking for the password
// (a page for a browser, 401 for others, X-Link-Password), five tries a minute per client and
// link, and the password never in any answer.

const ADMIN = 'admin-key-for-password-tests';
const KEY = { 'X-API-Key': ADMIN };
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const SECRET = 'correct horse';

function appWithClicks() {
  const clicks: string[] = [];
  const app = makeHandler({
    apiKey: ADMIN,
    passwordHasher: createScryptPasswordHasher(),
    onClick: (codeKey) => clicks.push(codeKey),
  });
  return { app, clicks };
}

async function protectedLink(app: ReturnType<typeof makeHandler>, code = 'locked') {
  const made = await app.post(
    '/api/v1/shorten',
    { original_url: 'https://example.com/x', custom_code: code, password: SECRET },
    KEY,
  );
  expect(made.status).toBe(201);
  return made;
}

/** A request from one client address (as the server's adapter tells the handler). */
const from = (app: ReturnType<typeof makeHandler>, path: string, init: RequestInit, client = '203.0.113.7') =>
  app.handler(new Request(`https://sho.rt${path}`, init), { client });

const form = (password: string, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { Accept: BROWSER, 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams({ password }).toString(),
});

describe('a v1 create and PATCH take a password', () => {
  it('keeps it only as a hash: no answer ever shows it, views say password_protected', async () => {
    const { app } = appWithClicks();
    const made = await protectedLink(app);
    const texts = [await made.text()];
    const one = await app.fetch('/api/v1/links/locked', { headers: KEY });
    const list = await app.fetch('/api/v1/links', { headers: KEY });
    const exported = await app.fetch('/api/v1/links/export', { headers: KEY });
    const oneBody = await json(one);
    expect(oneBody.data.password_protected).toBe(true);
    texts.push(JSON.stringify(oneBody), await list.text(), await exported.text());
    for (const text of texts) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toMatch(/scrypt\$|pbkdf2/);
      expect(text).not.toContain('password_hash');
    }
    expect((await app.fetch('/api/v1/links', { headers: KEY }).then(json)).data.links[0].password_protected).toBe(true);
  });

  it.each([
    ['abc', 'password must be 4 to 128 characters; it has 3.'],
    ['x'.repeat(129), 'password must be 4 to 128 characters; it has 129.'],
    [1234, 'password must be 4 to 128 characters (a string), or null to remove it.'],
  ])('refuses %j with a 400 that says the rule', async (password, message) => {
    const { app } = appWithClicks();
    const response = await app.post('/api/v1/shorten', { original_url: 'https://example.com/', password }, KEY);
    expect(response.status).toBe(400);
    expect((await json(response)).message).toBe(message);
  });

  it('takes "" on a create as no password, as every optional field of a create', async () => {
    const { app } = appWithClicks();
    const made = await app.post(
      '/api/v1/shorten',
      { original_url: 'https://example.com/', custom_code: 'blank', password: '' },
      KEY,
    );
    expect(made.status).toBe(201);
    expect((await app.fetch('/blank')).status).toBe(302);
  });

  it('counts code points: four Hangul syllables are a password', async () => {
    const { app } = appWithClicks();
    const response = await app.post(
      '/api/v1/shorten',
      { original_url: 'https://example.com/', password: '비밀번호' },
      KEY,
    );
    expect(response.status).toBe(201);
  });

  it('the legacy /api.php ignores password, as it ignores every field it does not know', async () => {
    const { app } = appWithClicks();
    const made = await app.post(
      '/api.php',
      { original_url: 'https://example.com/', custom_code: 'open', password: SECRET },
      KEY,
    );
    expect(made.status).toBe(200);
    expect((await app.fetch('/open')).status).toBe(302);
  });

  it('PATCH sets a password, and null removes it', async () => {
    const { app } = appWithClicks();
    await app.post('/api/v1/shorten', { original_url: 'https://example.com/x', custom_code: 'later' }, KEY);
    expect((await app.fetch('/later')).status).toBe(302);
    const patch = (body: unknown) =>
      app.fetch('/api/v1/links/later', {
        method: 'PATCH',
        headers: { ...KEY, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const set = await patch({ password: SECRET });
    expect(set.status).toBe(200);
    expect((await json(set)).data.password_protected).toBe(true);
    expect((await app.fetch('/later')).status).toBe(401);
    const removed = await json(await patch({ password: null }));
    expect(removed.data.password_protected).toBe(false);
    expect((await app.fetch('/later')).status).toBe(302);
    expect((await patch({ password: 'no' })).status).toBe(400);
    // "" would be read as "no password" on a create, but here it could mean "remove" or be a
    // slip of an empty field: it is refused and says how to remove the password.
    const empty = await patch({ password: '' });
    expect(empty.status).toBe(400);
    expect((await json(empty)).message).toBe(
      'password is empty: send null to remove the password, or a new one of 4 to 128 characters.',
    );
  });
});

describe('an export of protected links imported again', () => {
  it('creates them open, and says so in their rows: the export holds no password', async () => {
    const { app } = appWithClicks();
    await protectedLink(app, 'locked');
    await protectedLink(app, 'shut');
    const patched = await app.fetch('/api/v1/links/shut', {
      method: 'PATCH',
      headers: { ...KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ disabled: true }),
    });
    expect(patched.status).toBe(200);
    await app.post('/api/v1/shorten', { original_url: 'https://example.com/o', custom_code: 'open' }, KEY);
    const exported = await (await app.fetch('/api/v1/links/export?format=json', { headers: KEY })).text();

    const { app: other } = appWithClicks();
    const imported = await other.fetch('/api/v1/links/import', {
      method: 'POST',
      headers: { ...KEY, 'Content-Type': 'application/json' },
      body: exported,
    });
    const results = (await json(imported)).data.results as Array<{ code: string; status: string; message: string }>;
    const byCode = Object.fromEntries(results.map(({ code, status, message }) => [code, `${status}: ${message}`]));
    expect(byCode).toEqual({
      locked:
        'created: Created without its password (an export never holds one); set a new password to protect it again.',
      shut: 'created: Created, disabled as it was in the file, without its password (an export never holds one); set a new password to protect it again.',
      open: 'created: Created.',
    });
    expect((await other.fetch('/locked')).status).toBe(302);
  });
});

describe('the short URL of a protected link', () => {
  it('answers an API client 401 with the envelope; X-Link-Password opens it and counts the click', async () => {
    const { app, clicks } = appWithClicks();
    await protectedLink(app);
    const bare = await from(app, '/locked', {});
    expect(bare.status).toBe(401);
    expect((await json(bare)).message).toContain('X-Link-Password');
    const wrong = await from(app, '/locked', { headers: { 'X-Link-Password': 'wrong one' } });
    expect(wrong.status).toBe(401);
    expect((await json(wrong)).message).toBe('The password is not right for this short link. Check it and try again.');
    expect(clicks).toEqual([]);
    const right = await from(app, '/locked/', { headers: { 'X-Link-Password': SECRET } });
    expect(right.status).toBe(302);
    expect(right.headers.get('location')).toBe('https://example.com/x');
    expect(right.headers.get('cache-control')).toBe('no-store');
    expect(clicks).toEqual(['locked']);
  });

  it('gives a browser the page with a form that POSTs password here, in its language, under a policy that allows it', async () => {
    const { app } = appWithClicks();
    await protectedLink(app);
    for (const [language, heading] of [
      ['en', 'This link is protected by a password'],
      ['ko-KR,ko;q=0.9', '비밀번호로 보호된 링크입니다'],
    ] as const) {
      const response = await from(app, '/locked', { headers: { Accept: BROWSER, 'Accept-Language': language } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=UTF-8');
      expect(response.headers.get('content-security-policy')).toBe(PASSWORD_PAGE_POLICY);
      expect(response.headers.get('content-security-policy')).toContain("form-action 'self'");
      expect(response.headers.get('cache-control')).toBe('no-store');
      const html = await response.text();
      expect(html).toContain(heading);
      expect(html).toContain('<form method="post" action="https://sho.rt/locked">');
      expect(html).toContain('name="password" type="password"');
      expect(html).not.toContain('example.com'); // the target is not told before the password
    }
  });

  it('answers the form: right → 302 and a click, wrong → the page again with 401 and what went wrong', async () => {
    const { app, clicks } = appWithClicks();
    await protectedLink(app);
    const wrong = await from(app, '/locked', form('not it'));
    expect(wrong.status).toBe(401);
    const html = await wrong.text();
    expect(html).toContain('That password is not right.');
    expect(html).toContain('aria-invalid="true"');
    const wrongKo = await from(app, '/locked', form('not it', { 'Accept-Language': 'ko' }));
    expect(await wrongKo.text()).toContain('비밀번호가 맞지 않습니다.');
    const right = await from(app, '/locked', form(SECRET));
    expect(right.status).toBe(302);
    expect(right.headers.get('location')).toBe('https://example.com/x');
    expect(clicks).toEqual(['locked']);
  });

  it('a click its password opens is a visit like any other: referrer, browser, country and DNT go with it', async () => {
    const visits: Array<[string, RawVisit | undefined]> = [];
    const app = makeHandler({
      apiKey: ADMIN,
      passwordHasher: createScryptPasswordHasher(),
      onClick: (codeKey, _at, visit) => visits.push([codeKey, visit]),
      visits: { countryHeader: 'CF-IPCountry' },
    });
    await protectedLink(app);
    const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
    const byHeader = await from(app, '/locked', {
      headers: {
        'X-Link-Password': SECRET,
        Referer: 'https://news.example/1',
        'User-Agent': chrome,
        'CF-IPCountry': 'KR',
      },
    });
    expect(byHeader.status).toBe(302);
    const byForm = await from(app, '/locked', form(SECRET, { 'User-Agent': chrome, DNT: '1' }));
    expect(byForm.status).toBe(302);
    expect((await from(app, '/locked', form('not it', { 'User-Agent': chrome }))).status).toBe(401);
    expect(visits).toEqual([
      ['locked', { referer: 'https://news.example/1', userAgent: chrome, country: 'KR', private: false }],
      ['locked', { referer: undefined, userAgent: chrome, country: undefined, private: true }],
    ]);
  });

  it('allows 5 tries a minute per client and link: the 6th is 429 with Retry-After; others and later are not held back', async () => {
    const { app, clicks } = appWithClicks();
    await protectedLink(app);
    await protectedLink(app, 'other');
    const tryWith = (password: string, client?: string, path = '/locked') =>
      from(app, path, { headers: { 'X-Link-Password': password } }, client);
    for (let i = 0; i < 5; i++) expect((await tryWith('guess')).status).toBe(401);
    const sixth = await tryWith(SECRET);
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get('retry-after')).toBe('60');
    expect((await json(sixth)).message).toContain('Too many password tries');
    const page = await from(app, '/locked', form(SECRET));
    expect(page.status).toBe(429);
    expect(await page.text()).toContain('Too many tries. Wait 60 seconds');
    expect((await tryWith(SECRET, '198.51.100.1')).status).toBe(302); // another client
    expect((await tryWith(SECRET, undefined, '/other')).status).toBe(302); // another link
    app.clock.advance(60 * SECOND);
    expect((await tryWith(SECRET)).status).toBe(302);
    expect(clicks).toEqual(['locked', 'other', 'locked']);
  });

  it('a HEAD with the right password is answered but is not a click; a POST to an open link is still 405', async () => {
    const { app, clicks } = appWithClicks();
    await protectedLink(app);
    const head = await from(app, '/locked', { method: 'HEAD', headers: { 'X-Link-Password': SECRET } });
    expect(head.status).toBe(302);
    expect(clicks).toEqual([]);
    await app.post('/api/v1/shorten', { original_url: 'https://example.com/', custom_code: 'plain' }, KEY);
    expect((await from(app, '/plain', form(SECRET))).status).toBe(405);
    expect((await from(app, '/nothing-here', form(SECRET))).status).toBe(405);
  });

  it('works with the core PBKDF2 hasher the extension uses', async () => {
    const app = makeHandler({ passwordHasher: createPbkdf2PasswordHasher(1000) });
    await app.post('/api/v1/shorten', { original_url: 'https://example.com/p', custom_code: 'pb', password: SECRET });
    const link = await app.store.findByCodeKey('pb');
    expect(link?.passwordHash).toMatch(/^pbkdf2-sha256\$1000\$[\w-]{22}\$[\w-]{43}$/);
    expect((await from(app, '/pb', { headers: { 'X-Link-Password': SECRET } })).status).toBe(302);
    expect((await from(app, '/pb', { headers: { 'X-Link-Password': 'nope!' } })).status).toBe(401);
  });
});

describe('X-Link-Password carries UTF-8', () => {
  it('opens a link whose password is Hangul, sent as the raw UTF-8 bytes a header holds', async () => {
    const { app } = appWithClicks();
    await app.post(
      '/api/v1/shorten',
      { original_url: 'https://example.com/k', custom_code: 'ko', password: '열려라 참깨' },
      KEY,
    );
    // How Node hands the handler a header of UTF-8 bytes: one Latin-1 character per byte.
    const asLatin1 = String.fromCharCode(...new TextEncoder().encode('열려라 참깨'));
    expect((await from(app, '/ko', { headers: { 'X-Link-Password': asLatin1 } })).status).toBe(302);
  });
});
