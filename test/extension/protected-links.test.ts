import { describe, expect, it } from 'vitest';
import { readRemoteChange } from '../../extension/server/remote-link.js';
import { NOW, SERVER } from './helpers.js';

// A synced link the server protects with a password is shown as protected in the history: the
// listing's `password_protected` is kept on the link as read (and nothing else of it exists).

const iso = (epochMs: number) => new Date(epochMs).toISOString();
const item = (extra: Record<string, unknown> = {}) => ({
  code: 'locked',
  short_url: `${SERVER}/locked/`,
  original_url: 'https://example.com/a',
  created_at: iso(NOW - 60_000),
  expiration_date: iso(NOW + 86_400_000),
  status: 'active',
  clicks: 2,
  updated_at: iso(NOW - 60_000),
  ...extra,
});

describe('password_protected in a server listing', () => {
  it('marks the link protected when the server says true', () => {
    const { change } = readRemoteChange(item({ password_protected: true }), SERVER, NOW);
    expect(change).toMatchObject({ kind: 'link', code: 'locked', passwordProtected: true });
  });

  it.each([false, undefined, 'yes'])('leaves it open for %j (servers before passwords send nothing)', (value) => {
    const { change } = readRemoteChange(item({ password_protected: value }), SERVER, NOW);
    expect(change?.kind).toBe('link');
    expect(change && 'passwordProtected' in change).toBe(false);
  });
});
