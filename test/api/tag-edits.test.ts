import { describe, expect, it } from 'vitest';
import { json, makeHandler } from './make-handler.js';

const ADMIN = 'admin-key-0123456789';
const asKey = (key: string) => ({ 'X-API-Key': key });

/** A handler where alice and bob each own tagged links. */
async function withTaggedLinks() {
  const app = makeHandler({ apiKey: ADMIN });
  const makeKey = async (name: string) =>
    ((await json(await app.post('/api/v1/keys', { name }, asKey(ADMIN)))).data as { key: string }).key;
  const alice = await makeKey('alice');
  const bob = await makeKey('bob');
  const make = async (key: string, code: string, tags: string[]) => {
    const made = await app.post(
      '/api/v1/shorten',
      { original_url: `https://example.com/${code}`, custom_code: code, tags },
      asKey(key),
    );
    expect(made.status).toBe(201);
  };
  await make(alice, 'a1', ['work', 'q1']);
  await make(alice, 'a2', ['q1', 'work', '회의']);
  await make(bob, 'b1', ['work']);
  const send = (method: string, path: string, key: string, body?: unknown) =>
    app.fetch(path, {
      method,
      headers: { ...asKey(key), 'Content-Type': 'application/json' },
      ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  const tagsOf = async (key: string) =>
    Object.fromEntries(
      (
        (await json(await app.fetch('/api/v1/links', { headers: asKey(key) }))).data.links as Array<{
          code: string;
          tags: string[];
        }>
      ).map((link) => [link.code, link.tags]),
    );
  return { app, alice, bob, send, tagsOf };
}

describe('tags: rename and delete across your links', () => {
  it("renames a tag on the caller's links only, merging where a link has the new name already", async () => {
    const { alice, bob, send, tagsOf } = await withTaggedLinks();
    const renamed = await send('PATCH', '/api/v1/tags/WORK', alice, { name: 'Job' });
    expect(renamed.status).toBe(200);
    expect((await json(renamed)).data).toEqual({ tag: 'job', links: 2 });
    expect(await tagsOf(alice)).toEqual({ a1: ['job', 'q1'], a2: ['q1', 'job', '회의'] });
    expect(await tagsOf(bob)).toEqual({ b1: ['work'] });
    const merged = await json(await send('PATCH', '/api/v1/tags/job', alice, { name: 'q1' }));
    expect(merged.data).toEqual({ tag: 'q1', links: 2 });
    expect(merged.message).toBe("The tag is now 'q1' on 2 links.");
    expect(await tagsOf(alice)).toEqual({ a1: ['q1'], a2: ['q1', '회의'] });
  });

  it('takes a Hangul tag percent-encoded in the path, and the same name again changes nothing', async () => {
    const { alice, send, tagsOf } = await withTaggedLinks();
    const path = `/api/v1/tags/${encodeURIComponent('회의')}`;
    const renamed = await json(await send('PATCH', path, alice, { name: '회의록' }));
    expect(renamed.data).toEqual({ tag: '회의록', links: 1 });
    expect((await tagsOf(alice)).a2).toEqual(['q1', 'work', '회의록']);
    const same = await json(await send('PATCH', '/api/v1/tags/Q1', alice, { name: 'q1' }));
    expect(same.data).toEqual({ tag: 'q1', links: 2 });
  });

  it("deletes a tag from every one of the caller's links, and says how many", async () => {
    const { alice, bob, send, tagsOf } = await withTaggedLinks();
    const deleted = await send('DELETE', '/api/v1/tags/work', alice);
    expect(deleted.status).toBe(200);
    const body = await json(deleted);
    expect(body.data).toEqual({ tag: 'work', links: 2 });
    expect(body.message).toBe("The tag 'work' was removed from 2 links.");
    expect(await tagsOf(alice)).toEqual({ a1: ['q1'], a2: ['q1', '회의'] });
    expect(await tagsOf(bob)).toEqual({ b1: ['work'] });
  });

  it("answers 404 for a tag none of the caller's links has, another owner's included", async () => {
    const { alice, bob, send } = await withTaggedLinks();
    await send('DELETE', '/api/v1/tags/work', bob);
    for (const [method, body] of [
      ['PATCH', { name: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const missing = await send(method, '/api/v1/tags/work', bob, body);
      expect(missing.status).toBe(404);
      expect((await json(missing)).message).toBe(
        "None of your links has the tag 'work'; GET /api/v1/tags lists yours.",
      );
      expect((await send(method, '/api/v1/tags/q1', bob, body)).status).toBe(404);
      expect((await send(method, '/api/v1/tags/no%20tag', alice, body)).status).toBe(404);
    }
  });

  it('lets the administrator rename across every owner', async () => {
    const { alice, bob, send, tagsOf } = await withTaggedLinks();
    expect((await json(await send('PATCH', '/api/v1/tags/work', ADMIN, { name: 'team' }))).data).toEqual({
      tag: 'team',
      links: 3,
    });
    expect((await tagsOf(alice)).a1).toEqual(['team', 'q1']);
    expect(await tagsOf(bob)).toEqual({ b1: ['team'] });
  });

  it('refuses a bad new name with a 400 that says what a tag is, and needs a key', async () => {
    const { alice, send, app } = await withTaggedLinks();
    for (const body of [{ name: 'two words' }, { name: '' }, { name: 7 }, {}, [], '"work"']) {
      const refused = await send('PATCH', '/api/v1/tags/work', alice, body);
      expect(refused.status).toBe(400);
      expect((await json(refused)).message).toMatch(/name|tag/);
    }
    const wrong = await json(await send('PATCH', '/api/v1/tags/work', alice, { name: 'two words' }));
    expect(wrong.message).toBe(
      'name must be one tag: 1 to 32 letters, digits, - or _ (no spaces), such as "work"; "two words" is not.',
    );
    expect((await app.fetch('/api/v1/tags/work', { method: 'DELETE' })).status).toBe(401);
    const put = await send('PUT', '/api/v1/tags/work', alice, { name: 'x' });
    expect(put.status).toBe(405);
    expect(put.headers.get('Allow')).toContain('PATCH');
  });

  it('moves the changed links into changed_since, so devices sync the new tags', async () => {
    const { app, alice, send } = await withTaggedLinks();
    app.clock.advance(60_000);
    const since = new Date(app.clock.now - 1).toISOString();
    await send('DELETE', '/api/v1/tags/q1', alice);
    const changes = await json(
      await app.fetch(`/api/v1/links?changed_since=${encodeURIComponent(since)}`, { headers: asKey(alice) }),
    );
    expect(changes.data.links.map((link: { code: string; tags: string[] }) => [link.code, link.tags])).toEqual([
      ['a1', ['work']],
      ['a2', ['work', '회의']],
    ]);
  });
});
