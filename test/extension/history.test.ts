import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { History } from '../../extension/history/history.js';
import { entry, freshHistory, NOW } from './helpers.js';

let history: History;
let dispose: () => Promise<void>;

beforeEach(() => {
  ({ history, dispose } = freshHistory());
});
afterEach(() => dispose());

const ids = (entries: { id: string }[]) => entries.map((e) => e.id);

describe('history', () => {
  it('puts, gets, replaces and removes an entry', async () => {
    const made = entry({ id: 'one', status: 'local', server: null, message: 'note' });
    await history.put(made);
    expect(await history.get('one')).toEqual(made);

    await history.put({ ...made, status: 'synced' });
    expect((await history.get('one'))?.status).toBe('synced');
    expect(await history.list()).toHaveLength(1);

    await history.remove('one');
    expect(await history.get('one')).toBeUndefined();
    expect(await history.list()).toEqual([]);
    await expect(history.remove('never-there')).resolves.toBeUndefined();
  });

  it('lists newest first, whatever the order they were added in', async () => {
    for (const [id, createdAt] of [
      ['middle', NOW + 1000],
      ['oldest', NOW],
      ['newest', NOW + 2000],
    ] as const) {
      await history.put(entry({ id, code: id, createdAt }));
    }
    expect(ids(await history.list())).toEqual(['newest', 'middle', 'oldest']);
  });

  it('stops at the limit, keeping the newest', async () => {
    for (let i = 0; i < 5; i++) await history.put(entry({ id: `e${i}`, code: `c${i}`, createdAt: NOW + i }));
    expect(ids(await history.list({ limit: 2 }))).toEqual(['e4', 'e3']);
    expect(ids(await history.list({ limit: 0 }))).toEqual([]);
    expect(await history.list({ limit: 10 })).toHaveLength(5);
  });

  describe('search', () => {
    beforeEach(async () => {
      await history.put(
        entry({
          id: 'promo',
          code: 'Promo2026',
          shortUrl: 'https://sho.rt/Promo2026/',
          originalUrl: 'https://shop.example/Sale?id=7',
          createdAt: NOW,
        }),
      );
      await history.put(
        entry({
          id: 'docs',
          code: 'x7kp3aq',
          shortUrl: 'chrome-extension://abc/open.html#/x7kp3aq/',
          originalUrl: 'https://docs.example/Guide',
          createdAt: NOW + 1,
        }),
      );
      await history.put(
        entry({
          id: 'hangul',
          code: '한글',
          shortUrl: 'https://sho.rt/한글/',
          originalUrl: 'https://news.example/',
          createdAt: NOW + 2,
        }),
      );
    });

    it.each([
      ['the code, ignoring case', 'promo2026', ['promo']],
      ['part of the code', 'kp3', ['docs']],
      ['a Hangul code', '한글', ['hangul']],
      ['the short URL', 'chrome-extension://abc', ['docs']],
      ['the original URL, ignoring case', 'SHOP.EXAMPLE/sale', ['promo']],
      ['what several links share, newest first', 'https://', ['hangul', 'docs', 'promo']],
      ['surrounding spaces are ignored', '  guide  ', ['docs']],
      ['an empty query lists everything', '', ['hangul', 'docs', 'promo']],
      ['nothing matching', 'nowhere', []],
    ])('matches %s', async (_, query, expected) => {
      expect(ids(await history.list({ query }))).toEqual(expected);
    });

    it('applies the limit to the matches, not to the entries scanned', async () => {
      expect(ids(await history.list({ query: 'example', limit: 1 }))).toEqual(['hangul']);
      expect(ids(await history.list({ query: 'promo', limit: 1 }))).toEqual(['promo']);
    });
  });

  describe('titles and tags (synced links)', () => {
    beforeEach(async () => {
      await history.put(
        entry({
          id: 'picnic',
          code: 'p1',
          title: '봄 소풍 안내 — Spring Picnic',
          tags: ['work', '소풍'],
          createdAt: NOW,
        }),
      );
      await history.put(
        entry({ id: 'report', code: 'r2', title: 'Quarterly report', tags: ['work'], createdAt: NOW + 1 }),
      );
      await history.put(entry({ id: 'plain', code: 'x3', createdAt: NOW + 2 }));
    });

    it.each([
      ['a word of the title, ignoring case', 'spring picnic', ['picnic']],
      ['Hangul in the title', '소풍 안내', ['picnic']],
      ['a tag', '소풍', ['picnic']],
      ['part of a tag, on every link that has it', 'WOR', ['report', 'picnic']],
    ])('the search matches %s', async (_, query, expected) => {
      expect(ids(await history.list({ query }))).toEqual(expected);
    });

    it('filters by one tag, ignoring case, and combines with the search and the limit', async () => {
      expect(ids(await history.list({ tag: 'work' }))).toEqual(['report', 'picnic']);
      expect(ids(await history.list({ tag: 'WORK' }))).toEqual(['report', 'picnic']);
      expect(ids(await history.list({ tag: '소풍' }))).toEqual(['picnic']);
      // A tag is matched whole: part of one is a search, not a filter.
      expect(ids(await history.list({ tag: 'wor' }))).toEqual([]);
      expect(ids(await history.list({ tag: 'work', query: 'quarterly' }))).toEqual(['report']);
      expect(ids(await history.list({ tag: 'work', limit: 1 }))).toEqual(['report']);
      expect(ids(await history.list({ tag: '' }))).toEqual(['plain', 'report', 'picnic']);
    });

    it('lists every tag once, sorted, for the filter', async () => {
      expect(await history.tags()).toEqual(['work', '소풍']);
      await history.remove('picnic');
      expect(await history.tags()).toEqual(['work']);
    });
  });

  it('lists pending entries only, oldest first', async () => {
    await history.put(entry({ id: 'p-new', code: 'pnew', createdAt: NOW + 300 }));
    await history.put(entry({ id: 'synced', code: 'syn', status: 'synced', createdAt: NOW + 100 }));
    await history.put(entry({ id: 'p-old', code: 'pold', createdAt: NOW }));
    await history.put(entry({ id: 'conflict', code: 'con', status: 'conflict', createdAt: NOW + 50 }));
    await history.put(entry({ id: 'local', code: 'loc', status: 'local', server: null, createdAt: NOW + 10 }));
    await history.put(entry({ id: 'p-mid', code: 'pmid', createdAt: NOW + 200 }));
    expect(ids(await history.pending())).toEqual(['p-old', 'p-mid', 'p-new']);

    await history.put(entry({ id: 'p-mid', code: 'pmid', createdAt: NOW + 200, status: 'synced' }));
    expect(ids(await history.pending())).toEqual(['p-old', 'p-new']);
  });
});
