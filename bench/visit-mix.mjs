// The visits both bench writers make (bench/visits.mjs through the store, bench/visits-seed.mjs with
// SQL): four User-Agents with what the parser makes of them, six referrers, nine countries.

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
