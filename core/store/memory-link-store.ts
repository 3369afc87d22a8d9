import { countTags } from '../management/links/count-tags.js';
import { hasTag } from '../management/links/link-labels.js';
import { createMemoryVisits } from '../management/visits/memory-visits.js';
import { CLICK_DAYS_KEPT } from '../rules/clicks.js';
import {
  asciiLowerCase,
  type ChangeListQuery,
  inScope,
  KEY_TOUCH_INTERVAL_MS,
  type LinkChange,
  type LinkCountQuery,
  type LinkListQuery,
  type LinkOrder,
  type LinkOrderField,
  type ManagedLinkStore,
  mergeChanges,
  type OwnerKey,
  type OwnerScope,
  retagged,
  statusOf,
  TOMBSTONE_RETENTION_MS,
  type Tombstone,
} from './link-management-store.js';
import { patchedRuleFields, withoutRuleFields } from './link-rule-fields.js';
import type { CreateLinkResult, Link } from './link-store.js';

/** A copy without the optional fields at their defaults (as every store answers). */
const stored = (link: Link): Link => {
  const copy: Link = { ...link };
  if (copy.ownerId === undefined) delete copy.ownerId;
  if (copy.updatedAt === undefined || copy.updatedAt === copy.createdAt) delete copy.updatedAt;
  if (!copy.disabled) delete copy.disabled;
  if (copy.title === undefined) delete copy.title;
  if (copy.tags === undefined || copy.tags.length === 0) delete copy.tags;
  else copy.tags = [...copy.tags];
  delete copy.clicks; // kept in `totals`
  if (copy.passwordHash === undefined) delete copy.passwordHash;
  delete copy.passwordProtected; // the hash itself says it
  delete copy.claimTokenHash; // kept apart (`claimHashes`): no read gives it back
  return { ...withoutRuleFields(copy), ...patchedRuleFields(link, {}) };
};

/** Newest first: created_at, then code key, both descending. */
const newerFirst = (a: Link, b: Link) =>
  b.createdAt - a.createdAt || (a.codeKey < b.codeKey ? 1 : a.codeKey > b.codeKey ? -1 : 0);

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A comparator for `order`, ties by code key in the same direction (as the SQL stores order). */
function inOrder(order: LinkOrder, clicksOf: (link: Link) => number) {
  const field: Record<LinkOrderField, (a: Link, b: Link) => number> = {
    created: (a, b) => a.createdAt - b.createdAt,
    code: () => 0,
    url: (a, b) => byText(a.originalUrl, b.originalUrl),
    title: (a, b) => byText(a.title ?? '', b.title ?? ''),
    clicks: (a, b) => clicksOf(a) - clicksOf(b),
  };
  const sign = order.descending ? -1 : 1;
  return (a: Link, b: Link) => sign * (field[order.field](a, b) || byText(a.codeKey, b.codeKey));
}

/**
 * A `LinkStore` (and the management operations) in `Map`s, for tests and throwaway use.
 * JavaScript runs each operation to completion before any other, which is what makes it atomic.
 */
export function createMemoryLinkStore(): ManagedLinkStore {
  const links = new Map<string, Link>();
  const owners = new Map<string, number>();
  const keys: Array<OwnerKey & { keyHash: string }> = [];
  let tombstones: Tombstone[] = [];
  // Clicks by code key (the link holding it now), and each link's days under its own id: a
  // number from a counter that no import or retake can choose, so a code retaken with its
  // previous holder's creation time still starts with no days. A retake or delete drops the days.
  const totals = new Map<string, number>();
  const ids = new Map<string, number>();
  let lastId = 0;
  const days = new Map<number, Map<number, number>>();
  const visits = createMemoryVisits();
  /** The claim-token hash of each link that has one, by code key (see `Link.claimTokenHash`). */
  const claimHashes = new Map<string, string>();
  /** The id of the link created at `createdAt` holding this code now, if it is that link. */
  const idOf = (codeKey: string, createdAt: number) =>
    links.get(codeKey)?.createdAt === createdAt ? ids.get(codeKey) : undefined;
  const matching = ({ scope, search, status, tag, now }: LinkCountQuery) =>
    [...links.values()]
      .filter((link) => inScope(link, scope))
      .filter(
        (link) =>
          search === undefined ||
          asciiLowerCase(link.code).includes(search) ||
          asciiLowerCase(link.originalUrl).includes(search) ||
          asciiLowerCase(link.title ?? '').includes(search),
      )
      .filter((link) => tag === undefined || hasTag(link.tags, tag))
      .filter((link) => status === undefined || statusOf(link, now) === status);
  /** The bot visits of the link holding this code now (its own id's: none of a previous holder's). */
  const botsOf = (link: Link) => {
    const id = ids.get(link.codeKey);
    return id === undefined ? 0 : visits.botsOf(id);
  };
  const withClicks = (link: Link): Link => {
    const clicks = totals.get(link.codeKey);
    return clicks ? { ...link, clicks } : { ...link };
  };
  /** Sets each link in scope carrying `from` to its `retagged` tags, a change as `updateLink` makes it. */
  const retag = (scope: OwnerScope, from: string, to: string | undefined, now: number) => {
    let changed = 0;
    for (const link of links.values()) {
      const tags = inScope(link, scope) ? retagged(link.tags, from, to) : undefined;
      if (tags === undefined) continue;
      links.set(
        link.codeKey,
        stored({ ...link, tags, updatedAt: Math.max(now, (link.updatedAt ?? link.createdAt) + 1) }),
      );
      changed += 1;
    }
    return changed;
  };
  const secret = Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  );
  const keyView = ({ keyHash: _hash, ...key }: OwnerKey & { keyHash: string }): OwnerKey => {
    const view: OwnerKey = { ...key };
    if (view.lastUsedAt === undefined) delete view.lastUsedAt;
    return view;
  };

  return {
    async create(link: Link, now: number): Promise<CreateLinkResult> {
      const holder = links.get(link.codeKey);
      if (holder && now < holder.expiresAt) return { created: false, holderExpiresAt: holder.expiresAt };
      links.set(link.codeKey, stored(link));
      if (link.claimTokenHash === undefined) claimHashes.delete(link.codeKey);
      else claimHashes.set(link.codeKey, link.claimTokenHash);
      totals.delete(link.codeKey); // a new link starts from 0
      days.delete(ids.get(link.codeKey) ?? 0);
      visits.drop(ids.get(link.codeKey) ?? 0);
      ids.set(link.codeKey, ++lastId);
      return { created: true, link: stored(link) };
    },
    async findByCodeKey(codeKey: string) {
      const link = links.get(codeKey);
      return link && { ...link };
    },
    async ping() {},
    async close() {
      links.clear();
    },

    async createKey(name, keyHash, now) {
      let ownerId = owners.get(name);
      if (ownerId === undefined) {
        ownerId = owners.size + 1;
        owners.set(name, ownerId);
      }
      const key = { id: keys.length + 1, ownerId, name, createdAt: now, revoked: false, keyHash };
      keys.push(key);
      return keyView(key);
    },
    async listKeys() {
      return keys.map(keyView);
    },
    async revokeKey(id) {
      const key = keys.find((candidate) => candidate.id === id);
      if (key) key.revoked = true;
      return key !== undefined;
    },
    async findKeyByHash(keyHash) {
      const key = keys.find((candidate) => candidate.keyHash === keyHash && !candidate.revoked);
      return key && keyView(key);
    },
    async touchKey(id, now) {
      const key = keys.find((candidate) => candidate.id === id);
      if (key && (key.lastUsedAt === undefined || key.lastUsedAt <= now - KEY_TOUCH_INTERVAL_MS)) key.lastUsedAt = now;
    },
    async listLinks({ limit, after, order, offset = 0, ...filters }: LinkListQuery) {
      return matching(filters)
        .filter((link) => !after || newerFirst(link, { ...link, ...after }) > 0)
        .sort(order === undefined ? newerFirst : inOrder(order, (link) => totals.get(link.codeKey) ?? 0))
        .slice(offset, offset + limit)
        .map(withClicks);
    },
    async countLinks(filters: LinkCountQuery) {
      const found = matching(filters);
      return {
        links: found.length,
        clicks: found.reduce((sum, link) => sum + (totals.get(link.codeKey) ?? 0), 0),
      };
    },
    async countBots(filters: LinkCountQuery) {
      return matching(filters).reduce((sum, link) => sum + botsOf(link), 0);
    },
    async listChanges({ scope, limit, since, after }: ChangeListQuery) {
      const changes: Array<{ at: number; codeKey: string; change: LinkChange }> = [
        ...[...links.values()]
          .filter((link) => inScope(link, scope))
          .map((link) => ({
            at: link.updatedAt ?? link.createdAt,
            codeKey: link.codeKey,
            change: { kind: 'link' as const, link: withClicks(link) },
          })),
        ...tombstones
          .filter((tombstone) => inScope(tombstone, scope))
          .map((tombstone) => ({
            at: tombstone.deletedAt,
            codeKey: tombstone.codeKey,
            change: { kind: 'deleted' as const, tombstone: { ...tombstone } },
          })),
      ];
      const [fromAt, fromKey] = after ? [after.updatedAt, after.codeKey] : [since, ''];
      const later = changes.filter(({ at, codeKey }) => at > fromAt || (at === fromAt && codeKey > fromKey));
      return mergeChanges(later, limit);
    },
    async updateLink(codeKey, scope, patch, now) {
      const link = links.get(codeKey);
      if (!link || !inScope(link, scope)) return { updated: false, reason: 'not_found' };
      if (now >= link.expiresAt && patch.expiresAt === undefined) return { updated: false, reason: 'expired' };
      const changed = stored({
        ...link,
        originalUrl: patch.originalUrl ?? link.originalUrl,
        disabled: patch.disabled ?? link.disabled,
        title: patch.title === undefined ? link.title : (patch.title ?? undefined),
        tags: patch.tags ?? link.tags,
        expiresAt: patch.expiresAt ?? link.expiresAt,
        updatedAt: Math.max(now, (link.updatedAt ?? link.createdAt) + 1),
      });
      if (patch.passwordHash !== undefined) changed.passwordHash = patch.passwordHash ?? undefined;
      const next = stored({ ...withoutRuleFields(changed), ...patchedRuleFields(link, patch) });
      links.set(codeKey, next);
      return { updated: true, link: withClicks(next) };
    },
    async deleteLink(codeKey, scope, now) {
      const link = links.get(codeKey);
      if (!link || !inScope(link, scope)) return false;
      links.delete(codeKey);
      claimHashes.delete(codeKey);
      totals.delete(codeKey);
      days.delete(ids.get(codeKey) ?? 0);
      visits.drop(ids.get(codeKey) ?? 0);
      ids.delete(codeKey);
      tombstones = tombstones.filter((tombstone) => tombstone.deletedAt >= now - TOMBSTONE_RETENTION_MS);
      const tombstone: Tombstone = { code: link.code, codeKey, deletedAt: now };
      if (link.ownerId !== undefined) tombstone.ownerId = link.ownerId;
      tombstones.push(tombstone);
      return true;
    },
    async signingSecret() {
      return secret;
    },
    async addClicks({ day, codeKeys, counts, visits: rows, foldBefore }) {
      for (const row of rows ?? []) {
        const id = links.has(row.codeKey) ? ids.get(row.codeKey) : undefined;
        if (id !== undefined) visits.add(id, row);
      }
      if (foldBefore !== undefined) visits.fold(foldBefore);
      for (const [i, codeKey] of codeKeys.entries()) {
        const link = links.get(codeKey);
        const count = counts[i] ?? 0;
        if (!link) continue;
        totals.set(codeKey, (totals.get(codeKey) ?? 0) + count);
        const id = ids.get(codeKey) ?? 0;
        const byDay = days.get(id) ?? new Map<number, number>();
        byDay.set(day, (byDay.get(day) ?? 0) + count);
        days.set(id, byDay);
      }
      for (const [id, byDay] of days) {
        for (const old of byDay.keys()) if (old < day - CLICK_DAYS_KEPT) byDay.delete(old);
        if (byDay.size === 0) days.delete(id);
      }
    },
    async listTags(scope) {
      return countTags(
        [...links.values()]
          .filter((link) => inScope(link, scope))
          .map((link) => ({ ...withClicks(link), bots: botsOf(link) })),
      );
    },
    async renameTag(scope, from, to, now) {
      return retag(scope, from, to, now);
    },
    async deleteTag(scope, tag, now) {
      return retag(scope, tag, undefined, now);
    },
    async deleteVisits(codeKey, scope, now) {
      const link = links.get(codeKey);
      if (!link || !inScope(link, scope)) return undefined;
      const deleted = (totals.get(codeKey) ?? 0) + botsOf(link);
      totals.delete(codeKey);
      days.delete(ids.get(codeKey) ?? 0);
      visits.drop(ids.get(codeKey) ?? 0);
      links.set(codeKey, stored({ ...link, updatedAt: Math.max(now, (link.updatedAt ?? link.createdAt) + 1) }));
      return deleted;
    },
    async claimStateOf(codeKey) {
      const link = links.get(codeKey);
      if (!link) return undefined;
      const hash = claimHashes.get(codeKey);
      return {
        ...(link.ownerId !== undefined && { ownerId: link.ownerId }),
        ...(hash !== undefined && { claimTokenHash: hash }),
      };
    },
    async claimLink(codeKey, claimTokenHash, ownerId, now) {
      const link = links.get(codeKey);
      if (!link || link.ownerId !== undefined || claimHashes.get(codeKey) !== claimTokenHash) return undefined;
      claimHashes.delete(codeKey);
      const claimed = stored({ ...link, ownerId, updatedAt: Math.max(now, (link.updatedAt ?? link.createdAt) + 1) });
      links.set(codeKey, claimed);
      return withClicks(claimed);
    },
    async clicksOf(codeKey, createdAt, fromDay) {
      const link = links.get(codeKey);
      if (link?.createdAt !== createdAt) return { total: 0, days: [] };
      const byDay = [...(days.get(ids.get(codeKey) ?? 0) ?? [])]
        .filter(([day]) => day >= fromDay)
        .sort(([a], [b]) => a - b)
        .map(([day, clicks]) => ({ day, clicks }));
      return { total: totals.get(codeKey) ?? 0, days: byDay };
    },
    async visitTalliesOf(codeKey, createdAt, fromDay, toDay) {
      const id = idOf(codeKey, createdAt);
      return id === undefined ? { bots: 0, tallies: [] } : visits.talliesOf(id, fromDay, toDay);
    },
    async listVisits(codeKey, createdAt, limit, before) {
      const id = idOf(codeKey, createdAt);
      return id === undefined ? [] : visits.list(id, limit, before);
    },
  };
}
