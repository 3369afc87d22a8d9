import { expect } from 'vitest';
import { call, codeOf, shortPath } from './http-calls.js';
import { probeFeatures, type ReleaseFeatures } from './release-features.js';

/** A link an earlier release made, and what should become of it after the update. */
export interface MadeLink {
  code: string;
  target: string;
  /** Where the old release redirected: the update must send people to the same place. */
  location: string;
  /** Expiry in epoch ms; a legacy create reports it to the second. */
  expiresAt: number;
  fate: 'active' | 'expired' | 'disabled' | 'deleted';
  /** Owner name, or undefined for links without an owner (no key or the administrator's). */
  owner?: string;
  /** Clicks made on it through the old release. */
  clicks: number;
  /** Its title and tags as the old release answered them, where it had them. */
  title?: string;
  tags?: string[];
  /** The password its short URL asks for, where the old release had passwords. */
  password?: string;
}

/** Everything written through an earlier release, to check against after the update. */
export interface ReleaseData {
  features: ReleaseFeatures;
  links: MadeLink[];
  /** Owner name → API key. */
  keys: Record<string, string>;
}

const DURATIONS = ['24h', '48h', '1week', '1month'] as const;

/** The headers of the clicks made through the old release. */
const BROWSERS: Array<Record<string, string>> = [
  {
    'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
    Referer: 'https://news.example.org/story/1',
  },
  {
    'User-Agent':
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  },
  { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', DNT: '1' },
];

/** Legacy `expiration_date` (`YYYY-MM-DD HH:MM:SS`, server time zone UTC) or v1 ISO → epoch ms. */
const expiryMs = (date: string) => Date.parse(date.includes('T') ? date : `${date.replace(' ', 'T')}Z`);

/**
 * Writes links of every kind the release supports through its HTTP API: generated and custom
 * (Latin and Hangul) codes, each expiry, legacy and v1 creates, owners' links, clicks, a disabled
 * and a deleted link. The link meant to expire is returned active; the caller ends its expiry in
 * the database once the server has stopped.
 */
export async function writeReleaseData(origin: string, adminKey: string): Promise<ReleaseData> {
  const links: MadeLink[] = [];
  const create = async (
    endpoint: 'legacy' | 'v1',
    body: Record<string, string | string[]>,
    key = adminKey,
    owner?: string,
  ): Promise<MadeLink> => {
    const answer = await call(origin, 'POST', endpoint === 'legacy' ? '/api.php' : '/api/v1/shorten', { key, body });
    expect(answer.status, JSON.stringify(answer.body)).toBe(endpoint === 'legacy' ? 200 : 201);
    const code = codeOf(answer.body.data.short_url);
    const password = typeof body.password === 'string' ? body.password : undefined;
    const headers: Record<string, string> = password === undefined ? {} : { 'X-Link-Password': password };
    const head = await fetch(`${origin}${shortPath(code)}`, { method: 'HEAD', redirect: 'manual', headers });
    expect(head.status).toBe(302);
    const link: MadeLink = {
      code,
      target: body.original_url as string,
      location: head.headers.get('location') ?? '',
      expiresAt: expiryMs(answer.body.data.expiration_date),
      fate: 'active',
      owner,
      clicks: 0,
      password,
    };
    if (body.title !== undefined) {
      link.title = answer.body.data.title;
      link.tags = answer.body.data.tags;
    }
    links.push(link);
    return link;
  };

  const generated = await create('legacy', { original_url: 'https://example.com/legacy-generated' });
  for (const duration of DURATIONS) {
    await create('v1', { original_url: `https://example.com/v1/${duration}?a=1&b=2`, expire_duration: duration });
  }
  await create('legacy', { original_url: 'https://example.com/legacy/24h', expire_duration: '24h' });
  await create('legacy', { original_url: 'https://example.com/legacy/1month', expire_duration: '1month' });
  const latin = await create('v1', { original_url: 'https://example.com/latin', custom_code: 'Promo-2024_x' });
  await create('legacy', { original_url: 'https://bücher.example/책/읽기?q=한글', custom_code: '한글링크' });
  const hangul = await create('v1', {
    original_url: 'https://example.com/seoul',
    custom_code: '서울',
    expire_duration: '1month',
  });
  await create('v1', { original_url: 'https://example.com/soon-expired', custom_code: 'expiring' }).then((link) => {
    link.fate = 'expired';
  });

  const features = await probeFeatures(origin, adminKey, generated.code);
  const keys: Record<string, string> = {};
  if (features.owners) {
    for (const name of ['alice', '민준']) {
      const made = await call(origin, 'POST', '/api/v1/keys', { key: adminKey, body: { name } });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      keys[name] = made.body.data.key;
    }
    await create('v1', { original_url: 'https://example.com/alice/1' }, keys.alice, 'alice');
    await create(
      'legacy',
      { original_url: 'https://example.com/alice/2', custom_code: 'alice-legacy' },
      keys.alice,
      'alice',
    );
    await create(
      'v1',
      { original_url: 'https://example.com/minjun', custom_code: '민준의링크', expire_duration: '48h' },
      keys['민준'],
      '민준',
    );
  }
  // A title and tags (Hangul among them), and a password its short URL asks for; an owner's link
  // where the release had owners, so the update keeps whose they are too.
  const alice = keys.alice === undefined ? {} : { key: keys.alice, owner: 'alice' };
  if (features.labels) {
    await create(
      'v1',
      { original_url: 'https://example.com/report', title: '분기 보고서 — Q1 2026', tags: ['work', '보고서'] },
      alice.key,
      alice.owner,
    );
  }
  if (features.passwords) {
    await create('v1', {
      original_url: 'https://example.com/members',
      custom_code: '잠긴링크',
      password: 'update pass 2026',
    });
  }
  if (features.disable) {
    const link = await create(
      'v1',
      { original_url: 'https://example.com/alice/disabled' },
      keys.alice ?? adminKey,
      keys.alice ? 'alice' : undefined,
    );
    const patched = await call(origin, 'PATCH', `/api/v1/links/${encodeURIComponent(link.code)}`, {
      key: adminKey,
      body: { disabled: true },
    });
    expect(patched.status).toBe(200);
    link.fate = 'disabled';
  }
  if (features.remove) {
    const link = await create('v1', { original_url: 'https://example.com/deleted', custom_code: 'gone-soon' });
    expect((await call(origin, 'DELETE', `/api/v1/links/${link.code}`, { key: adminKey })).status).toBe(200);
    link.fate = 'deleted';
  }

  // Clicks: GETs answered 302 (a release that does not count them still redirects them), as
  // browsers send them (a script's own User-Agent is a bot, a visit but no click, to a release
  // with visits): a few browsers and referrers, one asking not to be tracked.
  const clicked: Array<[MadeLink | undefined, number]> = [
    [latin, 3],
    [hangul, 2],
    [links.find((link) => link.owner === 'alice'), 1],
    [links.find((link) => link.password !== undefined), 2],
  ];
  for (const [link, times] of clicked) {
    if (link === undefined) continue;
    for (let i = 0; i < times; i++) {
      const headers = { ...BROWSERS[i % BROWSERS.length] } as Record<string, string>;
      if (link.password !== undefined) headers['X-Link-Password'] = link.password;
      expect((await fetch(`${origin}${shortPath(link.code)}`, { redirect: 'manual', headers })).status).toBe(302);
    }
    link.clicks = features.clicks ? times : 0;
  }
  return { features, links, keys };
}
