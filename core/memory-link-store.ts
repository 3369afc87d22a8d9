import type { CreateLinkResult, Link, LinkStore } from './link-store.js';

/**
 * A `LinkStore` in a `Map`, for tests and throwaway use. JavaScript runs `create` to completion
 * before any other call, which is what makes it atomic.
 */
export function createMemoryLinkStore(): LinkStore {
  const links = new Map<string, Link>();
  return {
    async create(link: Link, now: number): Promise<CreateLinkResult> {
      const holder = links.get(link.codeKey);
      if (holder && now < holder.expiresAt) return { created: false, holderExpiresAt: holder.expiresAt };
      links.set(link.codeKey, { ...link });
      return { created: true, link: { ...link } };
    },
    async findByCodeKey(codeKey: string) {
      const link = links.get(codeKey);
      return link && { ...link };
    },
    async ping() {},
    async close() {
      links.clear();
    },
  };
}
