import type { TagCount } from '../../store/link-management-store.js';

/**
 * Adds up each tag's links, clicks and bot visits, for stores that hold their links in memory
 * (the memory store); the SQL stores group in the database.
 */
export function countTags(links: Iterable<{ tags?: string[]; clicks?: number; bots: number }>): TagCount[] {
  const counts = new Map<string, TagCount>();
  for (const link of links) {
    for (const tag of link.tags ?? []) {
      const count = counts.get(tag) ?? { tag, links: 0, clicks: 0, bots: 0 };
      count.links += 1;
      count.clicks += link.clicks ?? 0;
      count.bots += link.bots;
      counts.set(tag, count);
    }
  }
  return [...counts.values()];
}
