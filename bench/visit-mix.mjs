// The visits both bench writers make (bench/visits.mjs through the store, bench/visits-seed.mjs with
// SQL): four User-Agents with what the parser makes of them, six referrers, nine countries, in time order.

export const AGENTS = [
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'Chrome',
    'Windows',
    'desktop',
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    'Safari',
    'iOS',
    'mobile',
  ],
  ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox', 'Linux', 'desktop'],
  [
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    'Chrome',
    'Android',
    'mobile',
  ],
];
export const REFERRERS = [
  'direct',
  'www.google.com',
  't.co',
  'news.ycombinator.com',
  'www.reddit.com',
  'l.facebook.com',
];
export const COUNTRIES = ['KR', 'US', 'DE', 'JP', 'BR', 'FR', 'GB', 'IN', null];

/** The bench's link codes: `v000000` is the busiest. */
export const codeAt = (i) => `v${String(i).padStart(6, '0')}`;

/** Visit `i` of the mix at `at` (epoch seconds): of the busiest link one time in ten, else of any of `links`. */
export function visitAt(i, at, links) {
  const link = i % 10 === 0 ? 0 : 1 + Math.floor(Math.random() * (links - 1));
  const [userAgent, browser, os, device] = AGENTS[i % AGENTS.length];
  const dnt = i % 20 === 0;
  return {
    codeKey: codeAt(link),
    at,
    referrer: dnt ? null : REFERRERS[i % REFERRERS.length],
    country: dnt ? null : COUNTRIES[i % COUNTRIES.length],
    userAgent: dnt ? null : userAgent,
    browser: dnt ? null : browser,
    os: dnt ? null : os,
    device: dnt ? null : device,
    bot: i % 50 === 0,
  };
}

/**
 * `visits` visits spread evenly over the `spanS` seconds up to `nowS`, in time order (as traffic
 * comes), in slices of at most `size` consecutive visits; with `size` 0, one slice per second
 * (the visits a server's batch holds).
 */
export function* visitSlices({ visits, links, nowS, spanS, size = 0 }) {
  const fromS = nowS - spanS;
  let slice = [];
  for (let i = 0; i < visits; i++) {
    const at = fromS + Math.floor((i * spanS) / visits);
    if (slice.length > 0 && (size > 0 ? slice.length >= size : slice[0].at !== at)) {
      yield slice;
      slice = [];
    }
    slice.push(visitAt(i, at, links));
  }
  if (slice.length > 0) yield slice;
}
