import { describe, expect, it } from 'vitest';
import { DAY, json, makeHandler, START } from './make-handler.js';

const URL_A = 'https://example.com/a?x=1#top';

describe('POST /api/v1/shorten: success', () => {
  it('answers 201 with a Location header and the v1 envelope', async () => {
    const app = makeHandler({ codes: ['abc2345'] });
    const response = await app.post('/api/v1/shorten', { original_url: URL_A });

    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe('https://sho.rt/abc2345/');
    expect(await json(response)).toEqual({
      status: 'success',
      message: expect.stringMatching(/shortened/i),
      data: {
        short_url: 'https://sho.rt/abc2345/',
        original_url: URL_A,
        code: 'abc2345',
        expiration_date: '2026-02-07T12:00:00.000Z',
        // Made without a key: its maker's proof, to claim it once signed in.
        claim_token: expect.stringMatching(/^lc_[A-Za-z0-9_-]{43}$/),
      },
    });
  });

  it('percent-encodes a Hangul code in Location but keeps it Hangul in short_url', async () => {
    const app = makeHandler();
    const response = await app.post('/api/v1/shorten', { original_url: URL_A, custom_code: '한글' });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe('https://sho.rt/%ED%95%9C%EA%B8%80/');
    const body = await json(response);
    expect(body.data.short_url).toBe('https://sho.rt/한글/');
    expect(body.data.code).toBe('한글');
  });

  it('keeps the milliseconds of the expiration', async () => {
    const app = makeHandler();
    app.clock.now = START + 123;
    const body = await json(await app.post('/api/v1/shorten', { original_url: URL_A }));
    expect(body.data.expiration_date).toBe('2026-02-07T12:00:00.123Z');
  });

  it.each([
    ['24h', '2026-02-01T12:00:00.000Z'],
    ['48h', '2026-02-02T12:00:00.000Z'],
    ['1week', '2026-02-07T12:00:00.000Z'],
    ['1month', '2026-02-28T12:00:00.000Z'],
    [null, '2026-02-07T12:00:00.000Z'],
    ['', '2026-02-07T12:00:00.000Z'],
  ])('expire_duration %j expires at %s', async (duration, expected) => {
    const app = makeHandler();
    const response = await app.post('/api/v1/shorten', { original_url: URL_A, expire_duration: duration });
    expect(response.status).toBe(201);
    expect((await json(response)).data.expiration_date).toBe(expected);
  });

  it('writes the date in UTC whatever the display time zone', async () => {
    const app = makeHandler({ timeZone: 'Asia/Seoul' });
    const body = await json(await app.post('/api/v1/shorten', { original_url: URL_A, expire_duration: '24h' }));
    expect(body.data.expiration_date).toBe('2026-02-01T12:00:00.000Z');
  });

  it('returns the trimmed submission as original_url', async () => {
    const body = await json(
      await makeHandler().post('/api/v1/shorten', { original_url: '\t https://bücher.example/ä \n' }),
    );
    expect(body.data.original_url).toBe('https://bücher.example/ä');
  });

  it('treats null and "" custom_code as not given and ignores unknown fields', async () => {
    const app = makeHandler({ codes: ['gen2345', 'gen6789'] });
    const first = await json(await app.post('/api/v1/shorten', { original_url: URL_A, custom_code: null, x: 1 }));
    const second = await json(await app.post('/api/v1/shorten', { original_url: URL_A, custom_code: '', y: [] }));
    expect([first.data.code, second.data.code]).toEqual(['gen2345', 'gen6789']);
    expect(Object.keys(second.data).sort()).toEqual([
      'claim_token',
      'code',
      'expiration_date',
      'original_url',
      'short_url',
    ]);
  });

  it('does not enforce Content-Type', async () => {
    const response = await makeHandler().fetch('/api/v1/shorten', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: JSON.stringify({ original_url: URL_A, custom_code: 'plain' }),
    });
    expect(response.status).toBe(201);
  });
});

describe('POST /api/v1/shorten: conflicts', () => {
  it('answers 409 with a message that carries no date', async () => {
    const app = makeHandler();
    expect((await app.post('/api/v1/shorten', { original_url: URL_A, custom_code: 'Promo' })).status).toBe(201);

    const response = await app.post('/api/v1/shorten', { original_url: URL_A, custom_code: 'promo' });
    expect(response.status).toBe(409);
    const body = await json(response);
    expect(body).toEqual({ status: 'error', message: expect.stringContaining('custom_code') });
    expect(body.message).toContain('promo');
    // Neither the year, the day nor any time of the holder's expiration (the code has no digits).
    expect(body.message).not.toMatch(/\d/);
  });

  it('shares codes with the legacy endpoint', async () => {
    const app = makeHandler();
    await app.post('/api.php', { original_url: URL_A, custom_code: '한글' });
    const response = await app.post('/api/v1/shorten', { original_url: URL_A, custom_code: '한글'.normalize('NFD') });
    expect(response.status).toBe(409);
    expect(response.headers.get('location')).toBeNull();
  });

  it('frees the code once the holder expires', async () => {
    const app = makeHandler();
    await app.post('/api/v1/shorten', { original_url: URL_A, custom_code: 'promo', expire_duration: '24h' });
    app.clock.advance(DAY);
    const response = await app.post('/api/v1/shorten', {
      original_url: 'https://other.example/',
      custom_code: 'promo',
    });
    expect(response.status).toBe(201);
    expect((await json(response)).data.expiration_date).toBe('2026-02-08T12:00:00.000Z');
  });
});

describe('POST /api/v1/shorten: 400', () => {
  it.each([
    ['missing original_url', { custom_code: 'x' }, /original_url/],
    ['original_url a number', { original_url: 1 }, /original_url/],
    ['custom_code a number', { original_url: URL_A, custom_code: 7 }, /custom_code/],
    ['a bad expire_duration', { original_url: URL_A, expire_duration: '1year' }, /expire_duration/],
    ['the Kelvin sign in custom_code', { original_url: URL_A, custom_code: '\u212aelvin' }, /custom_code/],
    ['a reserved custom_code', { original_url: URL_A, custom_code: 'Login' }, /custom_code/],
    ['an own-host original_url', { original_url: 'https://sho.rt/x' }, /original_url/],
    ['a javascript: original_url', { original_url: 'javascript:alert(1)' }, /original_url/],
  ])('%s', async (_, body, field) => {
    const response = await makeHandler().post('/api/v1/shorten', body);
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await json(response)).toEqual({ status: 'error', message: expect.stringMatching(field) });
  });

  it.each([
    ['not JSON', '{original_url: https://example.com}', /JSON/],
    ['a JSON array', '[]', /JSON object/],
  ])('answers 400 for a body that is %s', async (_, raw, message) => {
    const response = await makeHandler().post('/api/v1/shorten', raw);
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({ status: 'error', message: expect.stringMatching(message) });
  });

  it('checks the configured maxUrlLength', async () => {
    const app = makeHandler({ maxUrlLength: 30 });
    const response = await app.post('/api/v1/shorten', { original_url: `https://example.com/${'a'.repeat(11)}` });
    expect(response.status).toBe(400);
    expect((await json(response)).message).toMatch(/original_url.*30/);
  });
});

describe('GET /api/v1/shorten', () => {
  it('describes the API as v1', async () => {
    const response = await makeHandler().fetch('/api/v1/shorten');
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({
      name: 'Linklet',
      version: 'v1',
      endpoint: 'https://sho.rt/api/v1/shorten',
      expire_durations: ['24h', '48h', '1week', '1month'],
      default_expire_duration: '1week',
      limits: { max_url_length: 2048, max_code_length: 64, max_body_bytes: 16384 },
    });
    const v1 = body.endpoints.find(
      (e: { method: string; path: string }) => e.method === 'POST' && e.path === '/api/v1/shorten',
    );
    expect(v1).toMatchObject({ success_status: 201, short_url: 'https://sho.rt/{code}/' });
    expect(v1.parameters.map((p: { name: string }) => p.name)).toEqual([
      'original_url',
      'custom_code',
      'expire_duration',
      'password', // v1 only: the legacy description keeps its three
    ]);
  });
});
