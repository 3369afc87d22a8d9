import type { AgentFacts } from '../../rules/agent-facts.js';

// Bots and tools that announce themselves; the server uses isbot's longer list (visit-parser.ts).
const BOT = /bot|crawl|spider|slurp|preview|facebookexternalhit|embedly|curl\/|wget\/|python-requests|headless/i;
const OSES: ReadonlyArray<[RegExp, string]> = [
  [/Android/, 'Android'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/CrOS/, 'Chrome OS'],
  [/Windows/, 'Windows'],
  [/Macintosh|Mac OS X/, 'macOS'],
  [/Linux/, 'Linux'],
];
const BROWSERS: ReadonlyArray<[RegExp, string]> = [
  [/Edg(?:e|A|iOS)?\//, 'Microsoft Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const first = (rules: ReadonlyArray<[RegExp, string]>, text: string) =>
  rules.find(([pattern]) => pattern.test(text))?.[1] ?? null;

/**
 * A small User-Agent classifier in bowser's names, for a handler run without the server's
 * (the extension's local backend, tests of the core alone): the server hands the handler its
 * visit parser's, so rules and statistics classify a visitor alike there.
 */
export function plainAgentFacts(userAgent: string | null): AgentFacts {
  if (userAgent === null || userAgent === '') return { browser: null, os: null, device: null, bot: false };
  const bot = BOT.test(userAgent);
  const os = first(OSES, userAgent);
  let device: string | null = null;
  if (!bot) {
    if (/iPad|Tablet/.test(userAgent)) device = 'tablet';
    else if (/Mobi|iPhone|iPod|Android/.test(userAgent)) device = 'mobile';
    else if (os !== null) device = 'desktop';
  }
  return { browser: first(BROWSERS, userAgent), os, device, bot };
}
