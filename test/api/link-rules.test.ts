import { describe, expect, it } from 'vitest';
import { createAgentParser } from '../../server/clicks/visit-parser.js';
import { makeCountingHandler } from './counting-handler.js';
import { DAY, HOUR, json, makeHandler } from './make-handler.js';

const ADMIN = 'admin-key-0123456789';
const asKey = (key: string) => ({ 'X-API-Key': key, 'Content-Type': 'application/json' });

const UA = {
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  firefoxWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0',
  chromeMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  slackbot: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
};

/** A handler with one owner and helpers; rules classify User-Agents with the server's visit parser. */
async function withOwner(options: { plainAgents?: boolean; blockPrivateTargets?: boolean } = {}) {
  const app = makeHandler({
    apiKey: ADMIN,
    blockPrivateTargets: options.blockPrivateTargets === true,
    linkRules: {
      countryHeader: 'CF-IPCountry',
      ...(options.plainAgents ? {} : { agentOf: createAgentParser() }),
    },
  });
  const made = await json(await app.post('/api/v1/keys', { name: 'owner' }, asKey(ADMIN)));
  const key = made.data.key as string;
  const send = (method: string, path: string, body?: unknown) =>
    app.fetch(path, { method, headers: asKey(key), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const create = (code: string, extra: object = {}) =>
    app.post(
      '/api/v1/shorten',
      { original_url: `https://example.com/${code}`, custom_code: code, ...extra },
      asKey(key),
    );
  const view = async (code: string) => (await json(await send('GET', `/api/v1/links/${code}`))).data;
  /** Follows a short URL as a visitor with these headers (and client address). */
  const visit = (path: string, headers: Record<string, string> = {}, address?: string) =>
    app.handler(new Request(`https://sho.rt${path}`, { headers }), address ? { address, client: address } : {});
  return { app, send, create, view, visit };
}

const rule = (target: string, ...conditions: object[]) => ({ target_url: target, conditions });

describe('rules and limits on a v1 create and PATCH', () => {
  it('keeps every field from the create, answers the ones set, and shows them on the link', async () => {
    const { create, view } = await withOwner();
    const rules = [
      rule('https://example.com/android', { type: 'device', value: 'Android' }),
      rule(
        'https://example.com/mail',
        { type: 'query-param', key: 'utm_source', value: 'mail' },
        { type: 'language', value: 'ko' },
      ),
    ];
    const made = await create('r1', {
      redirect_rules: rules,
      max_visits: 5,
      valid_since: '2026-02-01T09:00:00+09:00',
      forward_query: true,
    });
    expect(made.status).toBe(201);
    const stored = [
      rule('https://example.com/android', { type: 'device', value: 'android' }),
      rule(
        'https://example.com/mail',
        { type: 'query-param', key: 'utm_source', value: 'mail' },
        { type: 'language', value: 'ko' },
      ),
    ];
    expect((await json(made)).data).toMatchObject({
      redirect_rules: stored,
      max_visits: 5,
      valid_since: '2026-02-01T00:00:00.000Z',
      forward_query: true,
    });
    expect(await view('r1')).toMatchObject({
      redirect_rules: stored,
      max_visits: 5,
      valid_since: '2026-02-01T00:00:00.000Z',
      forward_query: true,
    });
    // A create without them answers as before, and its view shows the defaults.
    const plain = await json(await create('r2', { redirect_rules: null, max_visits: null, valid_since: null }));
    expect(Object.keys(plain.data).sort()).toEqual(['code', 'expiration_date', 'original_url', 'short_url']);
    expect(await view('r2')).toMatchObject({
      redirect_rules: [],
      max_visits: null,
      valid_since: null,
      forward_query: false,
    });
  });

  it('PATCH sets and clears each field on its own and leaves the rest', async () => {
    const { create, send, view } = await withOwner();
    await create('p1', { title: 'kept' });
    const rules = [rule('https://example.com/ios', { type: 'device', value: 'ios' })];
    expect((await send('PATCH', '/api/v1/links/p1', { redirect_rules: rules })).status).toBe(200);
    expect((await send('PATCH', '/api/v1/links/p1', { max_visits: 3 })).status).toBe(200);
    const patched = await send('PATCH', '/api/v1/links/p1', {
      valid_since: '2026-03-01T00:00:00Z',
      forward_query: true,
    });
    expect((await json(patched)).data).toMatchObject({
      title: 'kept',
      redirect_rules: rules,
      max_visits: 3,
      valid_since: '2026-03-01T00:00:00.000Z',
      forward_query: true,
    });
    await send('PATCH', '/api/v1/links/p1', { max_visits: null, valid_since: null });
    expect(await view('p1')).toMatchObject({
      redirect_rules: rules,
      max_visits: null,
      valid_since: null,
      forward_query: true,
    });
    await send('PATCH', '/api/v1/links/p1', { redirect_rules: null, forward_query: false });
    expect(await view('p1')).toMatchObject({ title: 'kept', redirect_rules: [], forward_query: false });
    await send('PATCH', '/api/v1/links/p1', { redirect_rules: rules });
    await send('PATCH', '/api/v1/links/p1', { redirect_rules: [] });
    expect((await view('p1')).redirect_rules).toEqual([]);
  });

  const tooMany = Array.from({ length: 21 }, (_, i) =>
    rule(`https://example.com/${i}`, { type: 'device', value: 'ios' }),
  );
  const refusals: Array<[object, RegExp]> = [
    [{ redirect_rules: 'android' }, /^redirect_rules must be a list of rules, such as \[/],
    [{ redirect_rules: tooMany }, /^redirect_rules may hold at most 20 rules; it has 21\./],
    [{ redirect_rules: [7] }, /^redirect_rules\[0\] must be an object with target_url and conditions/],
    [
      { redirect_rules: [{ conditions: [{ type: 'device', value: 'ios' }] }] },
      /^redirect_rules\[0\]\.target_url is required/,
    ],
    [
      { redirect_rules: [rule('ftp://example.com/x', { type: 'device', value: 'ios' })] },
      /^redirect_rules\[0\]\.target_url must use http or https, not ftp\./,
    ],
    [
      { redirect_rules: [rule('http://127.0.0.1/admin', { type: 'device', value: 'ios' })] },
      /^redirect_rules\[0\]\.target_url must not point at a private, loopback or link-local address/,
    ],
    [
      { redirect_rules: [rule('https://example.com/x')] },
      /^redirect_rules\[0\]\.conditions must be a list of 1 to 10 conditions; it has 0\./,
    ],
    [
      {
        redirect_rules: [
          rule('https://example.com/x', ...Array.from({ length: 11 }, () => ({ type: 'device', value: 'ios' }))),
        ],
      },
      /it has 11\./,
    ],
    [
      { redirect_rules: [rule('https://example.com/x', { type: 'planet', value: 'mars' })] },
      /^redirect_rules\[0\]\.conditions\[0\]\.type must be one of device, browser, language/,
    ],
    [
      { redirect_rules: [rule('https://example.com/x', { type: 'device', value: 'toaster' })] },
      /\.value must be one of android, ios, mobile, desktop/,
    ],
    [
      { redirect_rules: [rule('https://example.com/x', { type: 'browser', value: 'netscape' })] },
      /\.value must be one of chrome, firefox, edge, safari, opera\./,
    ],
    [
      { redirect_rules: [rule('https://example.com/x', { type: 'language', value: 'korean!' })] },
      /\.value must be a language tag such as ko or ko-KR\./,
    ],
    [
      { redirect_rules: [rule('https://example.com/x', { type: 'query-param', value: 'x' })] },
      /\.key must be the query parameter's name/,
    ],
    [
      { redirect_rules: [rule('https://example.com/x', { type: 'valueless-query-param', key: 'a', value: 'b' })] },
      /takes a key and no value\./,
    ],
    [
      { redirect_rules: [rule('https://example.com/x', { type: 'device', key: 'k', value: 'ios' })] },
      /\.key is only for query parameter conditions/,
    ],
    [
      { redirect_rules: [rule('https://example.com/x', { type: 'geolocation-country-code', value: 'KOR' })] },
      /two-letter ISO 3166 country code/,
    ],
    [
      { redirect_rules: [rule('https://example.com/x', { type: 'before-date', value: 'tomorrow' })] },
      /\.value must be an ISO 8601 date-time/,
    ],
    [
      { redirect_rules: [rule('https://example.com/x', { type: 'ip-address', value: '10.0.0.0/33' })] },
      /\.value must be an IP address or CIDR block/,
    ],
    [{ max_visits: 0 }, /^max_visits must be a whole number of at least 1/],
    [{ max_visits: 2.5 }, /^max_visits must be a whole number of at least 1/],
    [{ max_visits: '5' }, /^max_visits must be a whole number of at least 1/],
    [{ valid_since: '2026-02-01' }, /^valid_since must be an ISO 8601 date-time such as 2026-12-01T09:00:00Z/],
    [{ forward_query: 'yes' }, /^forward_query must be true or false\./],
  ];
  it.each(refusals)('refuses %j on a create and a PATCH with 400 and what is accepted', async (body, message) => {
    const { create, send } = await withOwner({ blockPrivateTargets: true });
    const refused = await create('bad', body);
    expect(refused.status).toBe(400);
    expect(await json(refused)).toMatchObject({ status: 'error' });
    expect((await json(await create('bad2', body))).message).toMatch(message);
    await create('ok');
    const patched = await send('PATCH', '/api/v1/links/ok', body);
    expect(patched.status).toBe(400);
    expect((await json(patched)).message).toMatch(message);
  });
});

describe('a redirect chosen by the link’s rules', () => {
  const target = async (response: Response) => {
    expect(response.status).toBe(302);
    return response.headers.get('location');
  };

  it('sends each condition kind where its rule says, and everyone else to the link’s own target', async () => {
    const { create, visit, app } = await withOwner();
    await create('k', {
      redirect_rules: [
        rule('https://example.com/android', { type: 'device', value: 'android' }),
        rule('https://example.com/iphone', { type: 'device', value: 'mobile' }),
        rule('https://example.com/firefox', { type: 'browser', value: 'firefox' }),
        rule('https://example.com/ko', { type: 'language', value: 'ko' }),
        rule('https://example.com/mail', { type: 'query-param', key: 'utm_source', value: 'mail' }),
        rule('https://example.com/ref', { type: 'any-value-query-param', key: 'ref' }),
        rule('https://example.com/beta', { type: 'valueless-query-param', key: 'beta' }),
        rule('https://example.com/kr', { type: 'geolocation-country-code', value: 'kr' }),
        rule('https://example.com/office', { type: 'ip-address', value: '203.0.113.0/24' }),
        rule('https://example.com/v6', { type: 'ip-address', value: '2001:db8::/32' }),
        rule('https://example.com/early', { type: 'before-date', value: '2026-01-31T13:00:00Z' }),
      ],
    });
    const mac = { 'User-Agent': UA.chromeMac };
    expect(await target(await visit('/k/', { 'User-Agent': UA.android }))).toBe('https://example.com/android');
    expect(await target(await visit('/k/', { 'User-Agent': UA.iphone }))).toBe('https://example.com/iphone');
    expect(await target(await visit('/k/', { 'User-Agent': UA.firefoxWindows }))).toBe('https://example.com/firefox');
    expect(await target(await visit('/k/', { ...mac, 'Accept-Language': 'ko-KR,ko;q=0.9' }))).toBe(
      'https://example.com/ko',
    );
    expect(await target(await visit('/k/', { ...mac, 'Accept-Language': 'ko;q=0, en' }))).toBe(
      'https://example.com/early',
    );
    expect(await target(await visit('/k/?utm_source=mail', mac))).toBe('https://example.com/mail');
    expect(await target(await visit('/k/?ref=x', mac))).toBe('https://example.com/ref');
    expect(await target(await visit('/k/?ref', mac))).toBe('https://example.com/ref');
    expect(await target(await visit('/k/?beta', mac))).toBe('https://example.com/beta');
    expect(await target(await visit('/k/?beta=on', mac))).toBe('https://example.com/early');
    expect(await target(await visit('/k/', { ...mac, 'CF-IPCountry': 'KR' }))).toBe('https://example.com/kr');
    expect(await target(await visit('/k/', mac, '203.0.113.77'))).toBe('https://example.com/office');
    expect(await target(await visit('/k/', mac, '::ffff:203.0.113.5'))).toBe('https://example.com/office');
    expect(await target(await visit('/k/', mac, '2001:db8:1::9'))).toBe('https://example.com/v6');
    expect(await target(await visit('/k/', mac, '198.51.100.1'))).toBe('https://example.com/early');
    app.clock.advance(2 * HOUR); // past the before-date: nothing holds
    expect(await target(await visit('/k/', mac))).toBe('https://example.com/k');
  });

  it('takes the first rule whose conditions all hold, after-date included', async () => {
    const { create, visit, app } = await withOwner();
    await create('f', {
      redirect_rules: [
        rule('https://example.com/android-ko', { type: 'device', value: 'android' }, { type: 'language', value: 'ko' }),
        rule('https://example.com/later', { type: 'after-date', value: '2026-02-01T00:00:00Z' }),
        rule('https://example.com/android', { type: 'device', value: 'android' }),
      ],
    });
    const android = { 'User-Agent': UA.android };
    expect(await target(await visit('/f/', { ...android, 'Accept-Language': 'ko-KR' }))).toBe(
      'https://example.com/android-ko',
    );
    expect(await target(await visit('/f/', { ...android, 'Accept-Language': 'en-US' }))).toBe(
      'https://example.com/android',
    );
    app.clock.advance(DAY);
    expect(await target(await visit('/f/', { ...android, 'Accept-Language': 'en-US' }))).toBe(
      'https://example.com/later',
    );
  });

  it('classifies devices and browsers with the built-in classifier too (no server parser given)', async () => {
    const { create, visit } = await withOwner({ plainAgents: true });
    await create('b', {
      redirect_rules: [
        rule('https://example.com/ios', { type: 'device', value: 'ios' }),
        rule('https://example.com/safari', { type: 'browser', value: 'safari' }),
        rule('https://example.com/desktop', { type: 'device', value: 'desktop' }, { type: 'browser', value: 'chrome' }),
      ],
    });
    expect(await target(await visit('/b/', { 'User-Agent': UA.iphone }))).toBe('https://example.com/ios');
    expect(await target(await visit('/b/', { 'User-Agent': UA.chromeMac }))).toBe('https://example.com/desktop');
    expect(await target(await visit('/b/', { 'User-Agent': UA.firefoxWindows }))).toBe('https://example.com/b');
  });

  it('is never kept by a browser, while a plain link’s redirect is as before', async () => {
    const { create, visit } = await withOwner();
    await create('plain');
    await create('ruled', { redirect_rules: [rule('https://example.com/x', { type: 'device', value: 'ios' })] });
    await create('fwd', { forward_query: true });
    expect((await visit('/plain/')).headers.get('cache-control')).toBe('private, max-age=60');
    expect((await visit('/ruled/')).headers.get('cache-control')).toBe('private, no-store');
    expect((await visit('/fwd/')).headers.get('cache-control')).toBe('private, max-age=60');
  });

  it('forwards the visit’s query parameters when asked, the visit’s winning a clash, also onto a rule’s target', async () => {
    const { create, visit, app } = await withOwner();
    await app.post(
      '/api/v1/shorten',
      { original_url: 'https://example.com/page?a=1&keep=yes#top', custom_code: 'q', forward_query: true },
      { 'X-API-Key': ADMIN, 'Content-Type': 'application/json' },
    );
    expect(await target(await visit('/q/?a=2&utm_source=x'))).toBe(
      'https://example.com/page?keep=yes&a=2&utm_source=x#top',
    );
    expect(await target(await visit('/q/'))).toBe('https://example.com/page?a=1&keep=yes#top');
    await create('q2', {
      forward_query: true,
      redirect_rules: [
        rule('https://example.com/mail?from=rule', { type: 'any-value-query-param', key: 'utm_source' }),
      ],
    });
    expect(await target(await visit('/q2/?utm_source=mail'))).toBe(
      'https://example.com/mail?from=rule&utm_source=mail',
    );
    await create('q3');
    expect(await target(await visit('/q3/?utm_source=mail'))).toBe('https://example.com/q3');
  });
});

describe('limits: a link not yet valid or with its visits used', () => {
  it('answers 410 before valid_since, in the visitor’s language, never the target; then redirects', async () => {
    const { create, visit, app } = await withOwner();
    await create('soon', { valid_since: '2026-02-01T00:00:00Z' });
    const early = await visit('/soon/');
    expect(early.status).toBe(410);
    expect(early.headers.get('location')).toBeNull();
    expect(await json(early)).toEqual({
      status: 'error',
      message: 'This short link is not valid until 2026-02-01T00:00:00.000Z.',
    });
    const page = await visit('/soon/', { Accept: 'text/html', 'Accept-Language': 'ko-KR' });
    expect(page.status).toBe(410);
    const html = await page.text();
    expect(html).toContain('아직 열리지 않은 링크입니다');
    expect(html).toContain('부터 열립니다.');
    const english = await (await visit('/soon/', { Accept: 'text/html', 'Accept-Language': 'en' })).text();
    expect(english).toContain('This link is not open yet');
    app.clock.advance(DAY);
    const open = await visit('/soon/');
    expect(open.status).toBe(302);
    expect(open.headers.get('cache-control')).toBe('private, no-store');
  });

  it('counts clicks to max_visits, once each whether written or not, and never bots, HEAD or prefetches', async () => {
    const { app, counter } = makeCountingHandler({ apiKey: ADMIN });
    const made = await app.post(
      '/api/v1/shorten',
      { original_url: 'https://example.com/limited', custom_code: 'lim', max_visits: 3 },
      asKey(ADMIN),
    );
    expect(made.status).toBe(201);
    const go = (headers: Record<string, string> = {}, method = 'GET') =>
      app.fetch('/lim/', { method, headers: { 'User-Agent': UA.chromeMac, ...headers } });
    expect((await go()).status).toBe(302);
    await counter.flush(); // the first click is in the store's total now, and no longer noted
    expect((await go({ 'User-Agent': UA.slackbot })).status).toBe(302); // a preview: no click
    expect((await go({}, 'HEAD')).status).toBe(302);
    expect((await go({ 'Sec-Purpose': 'prefetch' })).status).toBe(302);
    expect((await go()).status).toBe(302);
    expect((await go()).status).toBe(302); // the third click, still unwritten
    const refused = await go();
    expect(refused.status).toBe(410);
    expect(await json(refused)).toEqual({ status: 'error', message: 'This short link has used all its visits (3).' });
    await counter.flush();
    expect((await go()).status).toBe(410); // written now: counted once, not twice
    const page = await (await go({ Accept: 'text/html', 'Accept-Language': 'ko' })).text();
    expect(page).toContain('방문 횟수를 모두 사용한 링크입니다');
    const view = await json(await app.fetch('/api/v1/links/lim', { headers: asKey(ADMIN) }));
    expect(view.data).toMatchObject({ clicks: 3, max_visits: 3 });
    // Raising the limit opens it again.
    await app.fetch('/api/v1/links/lim', {
      method: 'PATCH',
      headers: asKey(ADMIN),
      body: JSON.stringify({ max_visits: 4 }),
    });
    expect((await go()).status).toBe(302);
    expect((await go()).status).toBe(410);
  });

  it('lets two visits decided at once never both take the last click', async () => {
    const { app } = makeCountingHandler({ apiKey: ADMIN });
    await app.post(
      '/api/v1/shorten',
      { original_url: 'https://example.com/one', custom_code: 'one', max_visits: 1 },
      asKey(ADMIN),
    );
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => app.fetch('/one/', { headers: { 'User-Agent': UA.android } })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([302, 410, 410, 410, 410, 410, 410, 410]);
  });
});

describe('a password-protected link with rules and limits', () => {
  it('asks for no password before valid_since or once used up, and sends the opened visit where its rules say', async () => {
    const { create, visit, app } = await withOwner();
    await create('locked', {
      password: 'open sesame',
      max_visits: 1,
      redirect_rules: [rule('https://example.com/android', { type: 'device', value: 'android' })],
    });
    await create('later', { password: 'open sesame', valid_since: '2026-02-01T00:00:00Z' });
    expect((await visit('/later/', { 'X-Link-Password': 'open sesame' })).status).toBe(410);
    expect((await visit('/later/', { Accept: 'text/html' })).status).toBe(410); // no password page
    expect((await visit('/locked/', { 'User-Agent': UA.android, 'X-Link-Password': 'wrong one' })).status).toBe(401);
    const opened = await visit('/locked/', { 'User-Agent': UA.android, 'X-Link-Password': 'open sesame' });
    expect(opened.status).toBe(302);
    expect(opened.headers.get('location')).toBe('https://example.com/android');
    expect(opened.headers.get('cache-control')).toBe('no-store');
    // Its one visit is used (the handler's own ledger counts it): the next gets the 410, page or not.
    expect((await visit('/locked/', { 'X-Link-Password': 'open sesame' })).status).toBe(410);
    app.clock.advance(DAY);
    expect((await visit('/later/', { 'X-Link-Password': 'open sesame' })).status).toBe(302);
  });
});
