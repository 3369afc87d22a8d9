import { describe, expect, it } from 'vitest';
import { MAX_CLAIMS } from '../../core/management/claims/claim-request.js';
import { generateApiKey, hashApiKey } from '../../core/management/owners/api-keys.js';
import type { ManagedLinkStore } from '../../core/store/link-management-store.js';
import type { LinkStore } from '../../core/store/link-store.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { json, makeHandler } from './make-handler.js';

const ADMIN = 'admin-key-0123456789';
const TOKEN = /^lc_[A-Za-z0-9_-]{43}$/;

/** An open server (creates need no key) with two owners' keys, alice's and bob's. */
async function openServer(apiKey?: string) {
  const app = makeHandler(apiKey === undefined ? {} : { apiKey });
  const store = app.store as ManagedLinkStore;
  const keyOf = async (name: string) => {
    const key = generateApiKey();
    await store.createKey(name, await hashApiKey(key), app.clock.now);
    return key;
  };
  const alice = await keyOf('alice');
  const bob = await keyOf('bob');
  const shorten = async (code: string, headers: Record<string, string> = {}) =>
    (
      await json(
        await app.post('/api/v1/shorten', { original_url: `https://example.com/${code}`, custom_code: code }, headers),
      )
    ).data as { code: string; claim_token?: string };
  const claim = (key: string | undefined, body: unknown) =>
    app.post('/api/v1/links/claim', body, key === undefined ? {} : { 'X-API-Key': key });
  const listed = async (key: string) =>
    (
      (await json(await app.fetch('/api/v1/links', { headers: { 'X-API-Key': key } }))).data.links as Array<{
        code: string;
      }>
    ).map((link) => link.code);
  return { app, alice, bob, shorten, claim, listed };
}

describe('the claim token of a create without a key', () => {
  it('is answered by a v1 create with no key alone: not the legacy dialect, an owner or the administrator', async () => {
    const { app, alice, shorten } = await openServer();
    expect((await shorten('guest')).claim_token).toMatch(TOKEN);
    expect((await shorten('mine', { 'X-API-Key': alice })).claim_token).toBeUndefined();
    const legacy = await json(await app.post('/api.php', { original_url: 'https://example.com/old' }));
    expect(legacy.data).not.toHaveProperty('claim_token');
    const admin = await openServer(ADMIN);
    expect((await admin.shorten('admins', { 'X-API-Key': ADMIN })).claim_token).toBeUndefined();
  });

  it('is not answered where the store keeps no owners (the extension): nothing could claim it', async () => {
    const { create, findByCodeKey, ping, close } = createMemoryLinkStore();
    const plain: LinkStore = { create, findByCodeKey, ping, close };
    const app = makeHandler({ store: plain });
    const made = await json(await app.post('/api/v1/shorten', { original_url: 'https://example.com/x' }));
    expect(made.data).not.toHaveProperty('claim_token');
  });
});

describe('POST /api/v1/links/claim', () => {
  it("makes the links the owner's, once, and lists them as theirs; a retry says the same", async () => {
    const { alice, bob, shorten, claim, listed } = await openServer();
    const first = await shorten('first');
    const second = await shorten('두번째');
    expect(await listed(alice)).toEqual([]);
    const items = [first, second].map(({ code, claim_token }) => ({ code, claim_token }));
    const response = await claim(alice, { claims: items });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await json(response);
    expect(body.message).toBe('2 links are yours now.');
    expect(body.data.claimed.map((link: { code: string }) => link.code)).toEqual(['first', '두번째']);
    expect(body.data.refused).toEqual([]);
    expect((await listed(alice)).sort()).toEqual(['first', '두번째'].sort());
    // Alice's retry (a lost answer) is told the same; Bob, holding the same tokens, is refused.
    expect((await json(await claim(alice, { claims: items }))).data.claimed).toHaveLength(2);
    const refused = await json(await claim(bob, { claims: items }));
    expect(refused.message).toBe('0 links are yours now; 2 could not be claimed (see refused).');
    expect(refused.data.refused.map((item: { reason: string }) => item.reason)).toEqual(['owned', 'owned']);
    expect(await listed(bob)).toEqual([]);
  });

  it('refuses each link it cannot give, saying why, and gives the rest', async () => {
    const { alice, bob, app, shorten, claim } = await openServer();
    const good = await shorten('good');
    const other = await shorten('other');
    const owned = await shorten('owned', { 'X-API-Key': bob });
    const gone = await shorten('gone');
    await (app.store as ManagedLinkStore).deleteLink('gone', { all: true }, app.clock.now);
    const body = await json(
      await claim(alice, {
        claims: [
          { code: 'GOOD', claim_token: good.claim_token },
          { code: 'other', claim_token: good.claim_token },
          { code: 'other', claim_token: 'not a token' },
          { code: owned.code, claim_token: other.claim_token },
          { code: gone.code, claim_token: gone.claim_token },
          { code: 'x'.repeat(65), claim_token: good.claim_token },
        ],
      }),
    );
    expect(body.data.claimed.map((link: { code: string }) => link.code)).toEqual(['good']);
    expect(body.data.refused).toEqual([
      { code: 'other', reason: 'mismatch', message: expect.stringMatching(/does not match/) },
      { code: 'other', reason: 'mismatch', message: expect.stringMatching(/does not match/) },
      { code: 'owned', reason: 'owned', message: expect.stringMatching(/already belongs/) },
      { code: 'gone', reason: 'unknown', message: expect.stringMatching(/No link has this code/) },
      { code: 'x'.repeat(65), reason: 'unknown', message: expect.stringMatching(/No link has this code/) },
    ]);
  });

  it('needs an owner’s key, a body of the documented shape, and POST', async () => {
    const { alice, claim, app } = await openServer(ADMIN);
    const item = { code: 'abc', claim_token: `lc_${'a'.repeat(43)}` };
    expect((await claim(undefined, { claims: [item] })).status).toBe(401);
    const admin = await claim(ADMIN, { claims: [item] });
    expect(admin.status).toBe(403);
    expect((await json(admin)).message).toMatch(/owner's key/);
    for (const body of [[], { claims: [] }, { claims: 'abc' }, { claims: [{ code: 1, claim_token: 'x' }] }]) {
      const refused = await claim(alice, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect((await json(refused)).message).toMatch(/claim/);
    }
    const tooMany = await claim(alice, { claims: Array.from({ length: MAX_CLAIMS + 1 }, () => item) });
    expect(tooMany.status).toBe(400);
    expect((await json(tooMany)).message).toMatch(/another request/);
    const get = await app.fetch('/api/v1/links/claim', { headers: { 'X-API-Key': alice } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
  });
});
