import { describe, expect, it } from 'vitest';
import { readRemoteChange } from '../../extension/server/remote-link.js';
import { mergeChanges } from '../../extension/sync/pull-links.js';
import { freshHistory, NOW, SERVER } from './helpers.js';

// A synced link's rules and limits are set on the server (the web app, the API) and shown in the
// popup's history: the listing's `redirect_rules`, `max_visits` and `valid_since` are kept on the
// link as the server last listed them; a server from before them lists none.

const iso = (epochMs: number) => new Date(epochMs).toISOString();
const item = (extra: Record<string, unknown> = {}) => ({
  code: 'ruled',
  short_url: `${SERVER}/ruled/`,
  original_url: 'https://example.com/a',
  created_at: iso(NOW - 60_000),
  expiration_date: iso(NOW + 86_400_000),
  status: 'active',
  clicks: 12,
  updated_at: iso(NOW - 60_000),
  ...extra,
});
const RULES = [{ target_url: 'https://example.com/android', conditions: [{ type: 'device', value: 'android' }] }];

describe('rules and limits in a server listing', () => {
  it('keeps that the link has rules, its visit limit and its start', () => {
    const since = NOW + 86_400_000;
    const { change } = readRemoteChange(
      item({ redirect_rules: RULES, max_visits: 100, valid_since: iso(since), forward_query: true }),
      SERVER,
      NOW,
    );
    expect(change).toMatchObject({ kind: 'link', hasRules: true, maxVisits: 100, validSince: since });
  });

  it.each([
    {},
    { redirect_rules: [], max_visits: null, valid_since: null },
    { redirect_rules: 'yes', max_visits: 0, valid_since: 'soon' },
    { redirect_rules: Array.from({ length: 21 }, () => RULES[0]), max_visits: 1.5 },
  ])('leaves them out for %j (none, or not what a server sends), and the link still syncs', (extra) => {
    const { change } = readRemoteChange(item(extra), SERVER, NOW);
    expect(change?.kind).toBe('link');
    for (const field of ['hasRules', 'maxVisits', 'validSince']) expect(change && field in change, field).toBe(false);
  });

  it('follows the server: a pull adds them to the history, a later one takes away what it dropped', async () => {
    const { history, dispose } = freshHistory();
    try {
      const first = readRemoteChange(item({ redirect_rules: RULES, max_visits: 100 }), SERVER, NOW).change;
      await mergeChanges(history, SERVER, first ? [first] : []);
      expect(await history.list()).toMatchObject([{ code: 'ruled', hasRules: true, maxVisits: 100, clicks: 12 }]);
      const later = readRemoteChange(
        item({ redirect_rules: [], max_visits: null, updated_at: iso(NOW) }),
        SERVER,
        NOW,
      ).change;
      await mergeChanges(history, SERVER, later ? [later] : []);
      const [entry] = await history.list();
      expect(entry?.code).toBe('ruled');
      expect(entry && ('hasRules' in entry || 'maxVisits' in entry)).toBe(false);
    } finally {
      await dispose();
    }
  });
});
