import { describe, expect, it } from 'vitest';
import { dayOf } from '../../core/rules/clicks.js';
import type { ManagedLinkStore } from '../../core/store/link-management-store.js';
import { DAY, json, makeHandler, START } from './make-handler.js';

const ADMIN = 'admin-key-0123456789';

/**
 * The reported attack, through the API, on the store `open` makes: Alice's link expires; its 410
 * page gives the expiry to the millisecond, so her link's creation time is one of a few guesses;
 * Bob imports a link with her code and that creation time, then asks for its clicks. On the
 * stores that keyed daily clicks by (code, created_at) he saw hers.
 */
export function describeClickHistoryLeak(name: string, open: () => Promise<ManagedLinkStore>): void {
  describe(`another owner's click history (${name})`, () => {
    it('stays hers when Bob imports her expired code with her creation time', async () => {
      const store = await open();
      try {
        const app = makeHandler({ apiKey: ADMIN, store });
        const keyOf = async (owner: string) =>
          (await json(await app.post('/api/v1/keys', { name: owner }, { 'X-API-Key': ADMIN }))).data.key as string;
        const [alice, bob] = [await keyOf('alice'), await keyOf('bob')];
        const made = await app.post(
          '/api/v1/shorten',
          { original_url: 'https://alice.example/launch', custom_code: 'launch', expire_duration: '24h' },
          { 'X-API-Key': alice },
        );
        expect(made.status).toBe(201);
        await store.addClicks({ day: dayOf(START), codeKeys: ['launch'], counts: [12] });
        const hers = await json(await app.fetch('/api/v1/links/launch', { headers: { 'X-API-Key': alice } }));
        expect(hers.data.clicks).toBe(12);

        app.clock.advance(2 * DAY);
        expect((await app.fetch('/launch')).status).toBe(410);
        const createdAt = new Date(START).toISOString(); // the expiry the 410 page shows, less 24h
        const expires = new Date(START + 30 * DAY).toISOString();
        const imported = await app.fetch('/api/v1/links/import', {
          method: 'POST',
          headers: { 'X-API-Key': bob, 'Content-Type': 'text/csv' },
          body: `code,original_url,created_at,expiration_date\nlaunch,https://bob.example/,${createdAt},${expires}\n`,
        });
        expect((await json(imported)).data.created).toBe(1);

        const seen = await json(await app.fetch('/api/v1/links/launch', { headers: { 'X-API-Key': bob } }));
        expect(seen.data.created_at).toBe(createdAt);
        expect(seen.data.clicks).toBe(0);
        expect(seen.data.clicks_by_day.filter((day: { clicks: number }) => day.clicks > 0)).toEqual([]);
      } finally {
        await store.close();
      }
    });
  });
}
