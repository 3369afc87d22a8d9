import { describe, expect, it } from 'vitest';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { json, makeHandler } from './make-handler.js';

const ADMIN = 'admin-key-0123456789';

/** A handler whose store counts key lookups, and an owner key made through the API. */
async function countingKeyLookups() {
  const store = createMemoryLinkStore();
  let lookups = 0;
  const findKeyByHash = store.findKeyByHash.bind(store);
  store.findKeyByHash = (hash) => {
    lookups += 1;
    return findKeyByHash(hash);
  };
  const app = makeHandler({ apiKey: ADMIN, store });
  const made = await json(await app.post('/api/v1/keys', { name: 'alice' }, { 'X-API-Key': ADMIN }));
  const key = made.data.key as string;
  const created = await app.post(
    '/api/v1/shorten',
    { original_url: 'https://example.com/a', custom_code: 'page1' },
    { 'X-API-Key': key },
  );
  expect(created.status).toBe(201);
  return {
    app,
    key,
    lookupsDuring: async (send: () => Promise<Response>) => {
      const before = lookups;
      const response = await send();
      return { response, lookups: lookups - before };
    },
  };
}

describe('a key is looked up once per request', () => {
  it('on PATCH, which checks the key before reading the body and then uses it', async () => {
    const { app, key, lookupsDuring } = await countingKeyLookups();
    const { response, lookups } = await lookupsDuring(() =>
      app.fetch('/api/v1/links/page1', {
        method: 'PATCH',
        headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
        body: JSON.stringify({ disabled: true }),
      }),
    );
    expect(response.status).toBe(200);
    expect(lookups).toBe(1);
  });

  it('on import, which checks the key before taking the file', async () => {
    const { app, key, lookupsDuring } = await countingKeyLookups();
    const { response, lookups } = await lookupsDuring(() =>
      app.fetch('/api/v1/links/import', {
        method: 'POST',
        headers: { 'X-API-Key': key, 'Content-Type': 'text/csv' },
        body: 'code,original_url\nimported1,https://example.com/b\n',
      }),
    );
    expect(response.status).toBe(200);
    expect((await json(response)).data.created).toBe(1);
    expect(lookups).toBe(1);
  });
});
