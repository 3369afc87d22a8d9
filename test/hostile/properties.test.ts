import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler } from '../../core/handler.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { type RunningServer, startServer } from '../../scripts/server-process.mjs';

const BASE_URL = 'https://sho.rt';

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}
type Post = (path: string, body: string) => Promise<Answer>;
type Get = (path: string) => Promise<Answer>;

const toAnswer = async (response: Response): Promise<Answer> => ({
  status: response.status,
  headers: response.headers,
  text: await response.text(),
});

/** Unicode pieces a code can be built from: allowed, refused and look-alike, mixed freely. */
const codeUnit = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0xac00, max: 0xd7a3 }).map((cp) => String.fromCodePoint(cp)) }, // syllables
  { weight: 2, arbitrary: fc.integer({ min: 0x1100, max: 0x11ff }).map((cp) => String.fromCodePoint(cp)) }, // conjoining jamo
  { weight: 2, arbitrary: fc.integer({ min: 0x3131, max: 0x318e }).map((cp) => String.fromCodePoint(cp)) }, // compatibility jamo
  { weight: 4, arbitrary: fc.constantFrom(...'abcXYZ019_-') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '\u115F',
      '\u1160',
      '\u3164',
      '\uFFA0',
      '\u212A',
      '\u017F',
      '\u0131',
      '\u0430',
      '\u200B',
      '\u202E',
      ' ',
      '.',
      '/',
      '%',
      'Ａ',
      '\uFFA1',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
);
/** Only what a code may hold: syllables, compatibility jamo, ASCII letters, digits, `_`, `-`. */
const validUnit = fc.oneof(
  fc.integer({ min: 0xac00, max: 0xd7a3 }).map((cp) => String.fromCodePoint(cp)),
  fc
    .integer({ min: 0x3131, max: 0x318e })
    .filter((cp) => cp !== 0x3164)
    .map((cp) => String.fromCodePoint(cp)),
  fc.constantFrom(...'abcdefghjkXYZ0123456789_-'),
);
/**
 * Codes: valid ones (1 to 66 characters, so the length limit is crossed too), short mixes of
 * anything, and long mixes; each sometimes decomposed (NFD) as a keyboard or macOS may send it.
 */
const customCode = fc
  .tuple(
    fc.oneof(
      { weight: 3, arbitrary: fc.array(validUnit, { minLength: 1, maxLength: 66 }) },
      { weight: 2, arbitrary: fc.array(codeUnit, { minLength: 1, maxLength: 8 }) },
      { weight: 1, arbitrary: fc.array(codeUnit, { minLength: 1, maxLength: 70 }) },
    ),
    fc.boolean(),
  )
  .map(([units, nfd]) => (nfd ? units.join('').normalize('NFD') : units.join('')));

const anyJson = fc.jsonValue({ maxDepth: 3 });
/** Bodies: arbitrary JSON, or shorten requests whose fields are anything at all. */
const body = fc.oneof(
  anyJson.map((value) => JSON.stringify(value)),
  fc
    .record(
      {
        original_url: fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.string(), anyJson),
        custom_code: fc.oneof(customCode, anyJson),
        expire_duration: fc.oneof(fc.constantFrom('24h', '48h', '1week', '1month', '', null), fc.string(), anyJson),
        __proto__: anyJson,
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
  fc.string({ unit: 'binary', maxLength: 200 }),
);
/** A path segment: percent escapes (valid, malformed, overlong), raw characters, slashes. */
const pathSegment = fc
  .array(
    fc.oneof(
      fc.constantFrom('%', '%E', '%ED%95%9C', '%ea%b8%80', '%C0%AF', '%FF', '%2F', '%25', '%2e', '..', '/', '?', '#'),
      fc.string({ unit: 'grapheme', maxLength: 4 }).map(encodeURIComponent),
      fc.constantFrom(...'abcPromo가한글ㅋ_-'),
    ),
    { minLength: 1, maxLength: 12 },
  )
  .map((parts) => `/${parts.join('')}`);

const ENVELOPE_KEYS = [
  ['message', 'status'],
  ['data', 'message', 'status'],
];

/** The property checks, against either transport. */
function properties(transport: () => { post: Post; get: Get }, runs: number) {
  it('random JSON bodies never produce a 500; every answer is an envelope', async () => {
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom('/api.php', '/api/v1/shorten'), async (text, path) => {
        const answer = await transport().post(path, text);
        expect([200, 201, 400, 409]).toContain(answer.status);
        expect(ENVELOPE_KEYS).toContainEqual(Object.keys(JSON.parse(answer.text)).sort());
        expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      }),
      { numRuns: runs },
    );
  });

  it('random custom codes never produce a 500; every accepted one round-trips', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(customCode, fc.nat(), async (code, n) => {
        const url = `https://example.com/round-trip/${n}/${Math.random().toString(36).slice(2)}`;
        const answer = await transport().post(
          '/api/v1/shorten',
          JSON.stringify({ original_url: url, custom_code: code }),
        );
        expect([201, 400, 409]).toContain(answer.status);
        const envelope = JSON.parse(answer.text);
        if (answer.status === 400) {
          expect(envelope.message).toMatch(/^custom_code /);
          return;
        }
        if (answer.status === 409) return; // an earlier run took it (or its case variant)
        accepted += 1;
        // The code is the NFC form of what was sent, and its short URL resolves to the URL,
        // whether asked for in NFC, in NFD or in another ASCII case.
        expect(envelope.data.code).toBe(code.normalize('NFC'));
        expect(envelope.data.short_url).toBe(`${BASE_URL}/${envelope.data.code}/`);
        const spellings = [envelope.data.code, code.normalize('NFD'), envelope.data.code.toUpperCase()];
        for (const spelling of spellings) {
          const resolved = await transport().get(`/${encodeURIComponent(spelling)}`);
          expect(resolved.status, spelling).toBe(302);
          expect(resolved.headers.get('location')).toBe(url);
        }
      }),
      { numRuns: runs },
    );
    expect(accepted).toBeGreaterThan(runs / 10);
  });

  it('random short-URL paths never produce a 500', async () => {
    await fc.assert(
      fc.asyncProperty(pathSegment, async (path) => {
        const answer = await transport().get(path);
        expect([200, 302, 404]).toContain(answer.status);
      }),
      { numRuns: runs },
    );
  });
}

describe('properties through the core handler', () => {
  const handler = createHandler({ store: createMemoryLinkStore(), baseUrl: BASE_URL });
  const post: Post = async (path, text) =>
    toAnswer(await handler(new Request(`${BASE_URL}${path}`, { method: 'POST', body: text })));
  const get: Get = async (path) => toAnswer(await handler(new Request(`${BASE_URL}${path}`)));
  properties(() => ({ post, get }), 500);
});

describe('properties over real HTTP to the server process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'linklet-properties-'));
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ DATABASE_URL: `sqlite:${join(dir, 'links.db')}`, BASE_URL });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const post: Post = async (path, text) =>
    toAnswer(await fetch(`${server.origin}${path}`, { method: 'POST', body: text }));
  const get: Get = async (path) => toAnswer(await fetch(`${server.origin}${path}`, { redirect: 'manual' }));
  properties(() => ({ post, get }), 150);
});
