import { describe, expect, it } from 'vitest';
import { DAY, HOUR, json, makeHandler } from './make-handler.js';

const URL_A = 'https://example.com/a?x=1#top';

describe('POST /api.php: success', () => {
  it('answers 200 with the legacy envelope and a generated code', async () => {
    const app = makeHandler({ codes: ['abc2345'] });
    const response = await app.post('/api.php', { original_url: URL_A });

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await json(response);
    expect(body).toEqual({
      status: 'success',
      message: expect.stringMatching(/shortened/i),
      data: {
        short_url: 'https://sho.rt/abc2345',
        original_url: URL_A,
        code: 'abc2345',
        expiration_date: '2026-02-07 12:00:00',
      },
    });
    expect(app.generatedLengths).toEqual([7]);
  });

  it('returns the trimmed submission as original_url, not a re-serialization', async () => {
    const app = makeHandler({ codes: ['abc2345'] });
    const submitted = 'https://Bücher.example/straße?q=ä';
    const body = await json(await app.post('/api.php', { original_url: `  \n${submitted}\t ` }));
    expect(body.data.original_url).toBe(submitted);
  });

  it('defaults expire_duration to 1week', async () => {
    const app = makeHandler();
    const body = await json(await app.post('/api.php', { original_url: URL_A }));
    expect(body.data.expiration_date).toBe('2026-02-07 12:00:00');
  });

  it.each([
    ['24h', '2026-02-01 12:00:00'],
    ['48h', '2026-02-02 12:00:00'],
    ['1week', '2026-02-07 12:00:00'],
    // Jan 31 + 1 month is clamped to the last day of February.
    ['1month', '2026-02-28 12:00:00'],
  ])('expire_duration %s expires at %s', async (duration, expected) => {
    const app = makeHandler();
    const response = await app.post('/api.php', { original_url: URL_A, expire_duration: duration });
    expect(response.status).toBe(200);
    expect((await json(response)).data.expiration_date).toBe(expected);
  });

  it.each([
    ['24h', '2026-02-01 21:00:00'],
    ['1week', '2026-02-07 21:00:00'],
    ['1month', '2026-02-28 21:00:00'],
  ])('with timeZone Asia/Seoul, %s expires at %s (Seoul time)', async (duration, expected) => {
    const app = makeHandler({ timeZone: 'Asia/Seoul' });
    const body = await json(await app.post('/api.php', { original_url: URL_A, expire_duration: duration }));
    expect(body.data.expiration_date).toBe(expected);
  });

  it('drops the seconds fraction and pads every part to two digits', async () => {
    const app = makeHandler();
    app.clock.now = Date.UTC(2026, 2, 1, 3, 4, 5, 999);
    const body = await json(await app.post('/api.php', { original_url: URL_A, expire_duration: '24h' }));
    expect(body.data.expiration_date).toBe('2026-03-02 03:04:05');
  });

  it.each([
    ['Hangul syllables', '한글코드', '한글코드'],
    ['compatibility jamo', 'ㅋㅋ', 'ㅋㅋ'],
    ['conjoining jamo, composed by NFC', '\u1112\u1161\u11ab\u1100\u1173\u11af', '한글'],
    ['mixed scripts', 'Promo_2026-한글', 'Promo_2026-한글'],
  ])('keeps a custom code of %s as its creator spelled it (NFC)', async (_, submitted, code) => {
    const app = makeHandler();
    const response = await app.post('/api.php', { original_url: URL_A, custom_code: submitted });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.data.code).toBe(code);
    expect(body.data.short_url).toBe(`https://sho.rt/${code}`);
    expect(app.generatedLengths).toEqual([]);
  });

  it('accepts a custom code of exactly 64 characters', async () => {
    const app = makeHandler();
    const code = '한'.repeat(64);
    const response = await app.post('/api.php', { original_url: URL_A, custom_code: code });
    expect(response.status).toBe(200);
    expect((await json(response)).data.code).toBe(code);
  });

  it.each([
    ['null', null],
    ['""', ''],
  ])('treats custom_code %s as not given (a code is generated)', async (_, value) => {
    const app = makeHandler({ codes: ['gen2345'] });
    const response = await app.post('/api.php', { original_url: URL_A, custom_code: value });
    expect(response.status).toBe(200);
    expect((await json(response)).data).toMatchObject({ code: 'gen2345', short_url: 'https://sho.rt/gen2345' });
  });

  it.each([
    ['null', null],
    ['""', ''],
  ])('treats expire_duration %s as not given (1week)', async (_, value) => {
    const app = makeHandler();
    const response = await app.post('/api.php', { original_url: URL_A, expire_duration: value });
    expect(response.status).toBe(200);
    expect((await json(response)).data.expiration_date).toBe('2026-02-07 12:00:00');
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', null])(
    'does not enforce Content-Type (%s)',
    async (contentType) => {
      const app = makeHandler({ codes: ['abc2345'] });
      const headers = new Headers();
      if (contentType) headers.set('Content-Type', contentType);
      // Bytes, so that no Content-Type is added for us when none is given.
      const response = await app.fetch('/api.php', {
        method: 'POST',
        headers,
        body: new TextEncoder().encode(JSON.stringify({ original_url: URL_A })),
      });
      expect(response.status).toBe(200);
      expect((await json(response)).data.short_url).toBe('https://sho.rt/abc2345');
    },
  );

  it('ignores unknown fields', async () => {
    const app = makeHandler();
    const response = await app.post('/api.php', {
      original_url: URL_A,
      custom_code: 'promo',
      expire_duration: '24h',
      expiration_date: '2099-01-01 00:00:00',
      short_url: 'https://evil.example/',
      extra: { nested: [1, 2] },
    });
    expect(response.status).toBe(200);
    expect((await json(response)).data).toEqual({
      short_url: 'https://sho.rt/promo',
      original_url: URL_A,
      code: 'promo',
      expiration_date: '2026-02-01 12:00:00',
    });
  });
});

describe('POST /api.php: conflicts', () => {
  it('answers 409 naming the holder’s expiration in legacy format', async () => {
    const app = makeHandler();
    expect(
      (await app.post('/api.php', { original_url: URL_A, custom_code: 'promo', expire_duration: '48h' })).status,
    ).toBe(200);
    app.clock.advance(HOUR);

    const response = await app.post('/api.php', { original_url: 'https://other.example/', custom_code: 'promo' });
    expect(response.status).toBe(409);
    const body = await json(response);
    expect(body).toEqual({ status: 'error', message: expect.any(String) });
    expect(body.message).toContain('custom_code');
    expect(body.message).toContain('promo');
    expect(body.message).toContain('2026-02-02 12:00:00');
  });

  it('names the moment in the configured time zone', async () => {
    const app = makeHandler({ timeZone: 'Asia/Seoul' });
    await app.post('/api.php', { original_url: URL_A, custom_code: 'promo', expire_duration: '24h' });
    const body = await json(await app.post('/api.php', { original_url: URL_A, custom_code: 'promo' }));
    expect(body.message).toContain('2026-02-01 21:00:00');
  });

  it.each([
    ['another ASCII case', 'Promo', 'pROMO'],
    ['the NFD form of a Hangul code', '한글', '한글'.normalize('NFD')],
    ['the NFC form of an NFD-submitted code', '한글'.normalize('NFD'), '한글'],
  ])('treats %s as the same code', async (_, first, second) => {
    const app = makeHandler();
    expect((await app.post('/api.php', { original_url: URL_A, custom_code: first })).status).toBe(200);
    const response = await app.post('/api.php', { original_url: 'https://other.example/', custom_code: second });
    expect(response.status).toBe(409);
    expect((await json(response)).message).toContain('2026-02-07 12:00:00');
  });

  it('keeps the holder: a conflict does not change where the code points', async () => {
    const app = makeHandler();
    await app.post('/api.php', { original_url: URL_A, custom_code: 'Promo' });
    await app.post('/api.php', { original_url: 'https://other.example/', custom_code: 'promo' });
    const resolved = await app.fetch('/promo');
    expect(resolved.headers.get('location')).toBe(URL_A);
  });

  it('frees the code the moment the holder expires, not before', async () => {
    const app = makeHandler();
    await app.post('/api.php', { original_url: URL_A, custom_code: 'promo', expire_duration: '24h' });

    app.clock.advance(DAY - 1);
    expect((await app.post('/api.php', { original_url: 'https://other.example/', custom_code: 'promo' })).status).toBe(
      409,
    );

    app.clock.advance(1);
    const response = await app.post('/api.php', { original_url: 'https://other.example/', custom_code: 'PROMO' });
    expect(response.status).toBe(200);
    expect((await json(response)).data).toEqual({
      short_url: 'https://sho.rt/PROMO',
      original_url: 'https://other.example/',
      code: 'PROMO',
      expiration_date: '2026-02-08 12:00:00',
    });
    expect((await app.fetch('/promo')).headers.get('location')).toBe('https://other.example/');
  });

  it('retries a generated code that collides instead of answering 409', async () => {
    const app = makeHandler({ codes: ['taken22', 'taken22', 'fresh33'] });
    expect((await app.post('/api.php', { original_url: URL_A })).status).toBe(200);
    const response = await app.post('/api.php', { original_url: URL_A });
    expect(response.status).toBe(200);
    expect((await json(response)).data.code).toBe('fresh33');
  });

  it('grows generated codes after repeated collisions', async () => {
    const app = makeHandler({ codes: ['taken22', 'taken22', 'taken22', 'taken22', 'taken22', 'fresh333'] });
    await app.post('/api.php', { original_url: URL_A });
    const response = await app.post('/api.php', { original_url: URL_A });
    expect(response.status).toBe(200);
    expect((await json(response)).data.code).toBe('fresh333');
    expect(app.generatedLengths).toEqual([7, 7, 7, 7, 8, 8]);
  });
});

describe('POST /api.php: 400', () => {
  const longUrlApp = () => makeHandler({ maxUrlLength: 40 });

  it.each([
    ['missing original_url', {}, /original_url/],
    ['original_url null', { original_url: null }, /original_url/],
    ['original_url ""', { original_url: '' }, /original_url/],
    ['original_url only whitespace', { original_url: '   ' }, /original_url/],
    ['original_url a number', { original_url: 123 }, /original_url/],
    ['original_url an object', { original_url: { href: URL_A } }, /original_url/],
    ['custom_code a number', { original_url: URL_A, custom_code: 5 }, /custom_code/],
    ['custom_code a boolean', { original_url: URL_A, custom_code: true }, /custom_code/],
    ['expire_duration a number', { original_url: URL_A, expire_duration: 24 }, /expire_duration/],
    ['expire_duration an array', { original_url: URL_A, expire_duration: ['24h'] }, /expire_duration/],
    ['expire_duration 2weeks', { original_url: URL_A, expire_duration: '2weeks' }, /expire_duration/],
    ['expire_duration a date', { original_url: URL_A, expire_duration: '2026-03-01 00:00:00' }, /expire_duration/],
    ['expire_duration 1WEEK', { original_url: URL_A, expire_duration: '1WEEK' }, /expire_duration/],
    ['expire_duration " 24h"', { original_url: URL_A, expire_duration: ' 24h' }, /expire_duration/],
    ['custom_code with the Kelvin sign U+212A', { original_url: URL_A, custom_code: 'promo\u212a' }, /custom_code/],
    ['custom_code only the Kelvin sign', { original_url: URL_A, custom_code: '\u212a' }, /custom_code/],
    ['custom_code with a space', { original_url: URL_A, custom_code: 'my code' }, /custom_code/],
    ['custom_code with a dot', { original_url: URL_A, custom_code: 'a.b' }, /custom_code/],
    ['custom_code with a slash', { original_url: URL_A, custom_code: 'a/b' }, /custom_code/],
    ['custom_code with a percent sign', { original_url: URL_A, custom_code: 'a%20b' }, /custom_code/],
    ['custom_code with a zero-width space', { original_url: URL_A, custom_code: 'a\u200bb' }, /custom_code/],
    ['custom_code with a fullwidth letter', { original_url: URL_A, custom_code: '\uff21bc' }, /custom_code/],
    ['custom_code with the Hangul filler U+3164', { original_url: URL_A, custom_code: 'a\u3164' }, /custom_code/],
    ['custom_code with the halfwidth filler U+FFA0', { original_url: URL_A, custom_code: 'a\uffa0' }, /custom_code/],
    ['custom_code with jamo that do not compose', { original_url: URL_A, custom_code: '\u11ab' }, /custom_code/],
    ['custom_code of 65 characters', { original_url: URL_A, custom_code: 'a'.repeat(65) }, /custom_code/],
    ['reserved custom_code api', { original_url: URL_A, custom_code: 'api' }, /custom_code/],
    ['reserved custom_code API', { original_url: URL_A, custom_code: 'API' }, /custom_code/],
    ['reserved custom_code health', { original_url: URL_A, custom_code: 'health' }, /custom_code/],
    ['reserved custom_code Admin', { original_url: URL_A, custom_code: 'Admin' }, /custom_code/],
    ['reserved custom_code www', { original_url: URL_A, custom_code: 'www' }, /custom_code/],
    ['reserved custom_code docs', { original_url: URL_A, custom_code: 'docs' }, /custom_code/],
    ['original_url pointing at this service', { original_url: 'https://sho.rt/abc' }, /original_url/],
    ['original_url at this service over http, upper case', { original_url: 'http://SHO.RT/x' }, /original_url/],
    ['javascript: original_url', { original_url: 'javascript:alert(1)' }, /original_url/],
    ['data: original_url', { original_url: 'data:text/html,hi' }, /original_url/],
    ['file: original_url', { original_url: 'file:///etc/passwd' }, /original_url/],
    ['ftp: original_url', { original_url: 'ftp://example.com/f' }, /original_url/],
    ['relative original_url', { original_url: '/path' }, /original_url/],
    ['original_url without //', { original_url: 'https:example.com' }, /original_url/],
    ['original_url with credentials', { original_url: 'https://a@b.example/' }, /original_url/],
    ['original_url with inner whitespace', { original_url: 'https://example.com/a b' }, /original_url/],
    ['original_url with a control character', { original_url: 'https://example.com/a\u0007' }, /original_url/],
  ])('%s', async (_, body, field) => {
    const app = makeHandler();
    const response = await app.post('/api.php', body);
    expect(response.status).toBe(400);
    const envelope = await json(response);
    expect(envelope).toEqual({ status: 'error', message: expect.stringMatching(field) });
  });

  it('names the reserved rule for a reserved code', async () => {
    const body = await json(await makeHandler().post('/api.php', { original_url: URL_A, custom_code: 'admin' }));
    expect(body.message).toMatch(/custom_code.*reserved/);
  });

  it.each([
    ['not JSON', 'original_url=https://example.com', /JSON/],
    ['truncated JSON', '{"original_url": "https://example.com"', /JSON/],
    ['empty', '', /empty|JSON/],
    ['a JSON array', JSON.stringify([{ original_url: URL_A }]), /JSON object/],
    ['a JSON string', JSON.stringify(URL_A), /JSON object/],
    ['JSON null', 'null', /JSON object/],
    ['a JSON number', '42', /JSON object/],
  ])('answers 400 for a body that is %s', async (_, raw, message) => {
    const response = await makeHandler().post('/api.php', raw);
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({ status: 'error', message: expect.stringMatching(message) });
  });

  it('checks the configured maxUrlLength on the trimmed URL', async () => {
    const app = longUrlApp();
    const exactly40 = `https://example.com/${'a'.repeat(20)}`;
    expect(exactly40).toHaveLength(40);

    expect((await app.post('/api.php', { original_url: ` ${exactly40} ` })).status).toBe(200);
    const response = await app.post('/api.php', { original_url: `${exactly40}b` });
    expect(response.status).toBe(400);
    const body = await json(response);
    expect(body.message).toContain('original_url');
    expect(body.message).toContain('40');
  });

  it('refuses a URL over the default 2048 characters', async () => {
    const app = makeHandler();
    const base = 'https://example.com/';
    const at2048 = base + 'a'.repeat(2048 - base.length);
    expect((await app.post('/api.php', { original_url: at2048 })).status).toBe(200);
    const response = await app.post('/api.php', { original_url: `${at2048}a` });
    expect(response.status).toBe(400);
    expect((await json(response)).message).toContain('original_url');
  });

  it('stores nothing on a 400', async () => {
    const app = makeHandler();
    await app.post('/api.php', { original_url: 'javascript:alert(1)', custom_code: 'promo' });
    expect((await app.post('/api.php', { original_url: URL_A, custom_code: 'promo' })).status).toBe(200);
  });
});

describe('GET /api.php', () => {
  it('describes the API', async () => {
    const response = await makeHandler().fetch('/api.php');
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({
      name: 'Linklet',
      version: 'legacy',
      expire_durations: ['24h', '48h', '1week', '1month'],
      default_expire_duration: '1week',
      limits: { max_url_length: 2048, max_code_length: 64, max_body_bytes: 16384 },
    });
    expect(body.endpoints).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ method: 'POST', path: '/api.php', success_status: 200 }),
        expect.objectContaining({ method: 'POST', path: '/api/v1/shorten', success_status: 201 }),
        expect.objectContaining({ method: 'GET', path: '/api.php' }),
        expect.objectContaining({ method: 'GET', path: '/api/v1/shorten' }),
      ]),
    );
    const legacy = body.endpoints.find(
      (e: { method: string; path: string }) => e.method === 'POST' && e.path === '/api.php',
    );
    expect(legacy.parameters).toEqual([
      expect.objectContaining({ name: 'original_url', type: 'string', required: true, rules: expect.any(String) }),
      expect.objectContaining({ name: 'custom_code', type: 'string', required: false, rules: expect.any(String) }),
      expect.objectContaining({
        name: 'expire_duration',
        type: 'string',
        required: false,
        values: ['24h', '48h', '1week', '1month'],
        default: '1week',
      }),
    ]);
  });

  it('reports the configured limits', async () => {
    const body = await json(await makeHandler({ maxUrlLength: 500 }).fetch('/api.php'));
    expect(body.limits.max_url_length).toBe(500);
  });

  it('answers HEAD with the headers and no body', async () => {
    const response = await makeHandler().fetch('/api.php', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });
});
