import type { TagCount } from '../../store/link-management-store.js';

/**
 * Adds up each tag's links and clicks, for stores that hold their links in memory (the memory
 * store); the SQL stores group in the database.
 */
export function countTags(links: Iterable<{ tags?: string[]; clicks?: number }>): TagCount[] {
  const counts = new Map<string, TagCount>();
  for (const link of links) {
    for (const tag of link.tags ?? []) {
      const count = counts.get(tag) ?? { tag, links: 0, clicks: 0 };
      count.links += 1;
      count.clicks += link.clicks ?? 0;
      counts.set(tag, count);
    }
  }
  return [...counts.values()];
}
