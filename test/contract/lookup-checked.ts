import { expect } from 'vitest';
import { isPasswordProtected } from '../../core/passwords/protected-link.js';
import type { Link, LinkStore } from '../../core/store/link-store.js';

/** What a redirect reads of a link: a cached `lookup` must agree with the store on exactly this. */
const redirectView = (found: Link | undefined) =>
  found && {
    code: found.code,
    codeKey: found.codeKey,
    originalUrl: found.originalUrl,
    createdAt: found.createdAt,
    expiresAt: found.expiresAt,
    disabled: found.disabled === true,
    passwordProtected: isPasswordProtected(found),
  };

/**
 * A store whose every `findByCodeKey` in the contract also asks its `lookup` (the redirect read a
 * cache answers), first, and checks that both say the same: a cache that answers stale fails here.
 * With `warm`, every create is read for a redirect at once too, so the cache holds the link
 * before whatever the contract does to it next.
 */
export function withLookupChecked<S extends LinkStore>(store: S, warm = false): S {
  const { lookup } = store;
  if (lookup === undefined) return store;
  const checked = Object.create(store) as S;
  if (warm) {
    checked.create = async (made, now) => {
      const result = await store.create(made, now);
      await lookup(made.codeKey);
      return result;
    };
  }
  checked.findByCodeKey = async (codeKey) => {
    const forRedirect = await lookup(codeKey);
    const found = await store.findByCodeKey(codeKey);
    expect(redirectView(forRedirect)).toEqual(redirectView(found));
    return found;
  };
  return checked;
}
