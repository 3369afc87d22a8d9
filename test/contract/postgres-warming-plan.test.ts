import { describe, expect, it } from 'vitest';
import { createPostgresLinkStore } from '../../server/stores/postgres/postgres-link-store.js';
import { recentLinksSql } from '../../server/stores/postgres/postgres-recent-links.js';
import { TEST_DATABASE_URL, usePostgresSchema } from '../server/postgres-schema.js';

const { schema, admin } = usePostgresSchema('linklet_warming_plan');
const NOW = Date.UTC(2026, 10, 26);

/** Every node type of a statement's plan, the planner told to avoid sorts and full scans where it can. */
async function planNodes(sql: string, values: unknown[]): Promise<string[]> {
  await admin.query('BEGIN');
  try {
    await admin.query('SET LOCAL enable_sort = off');
    await admin.query('SET LOCAL enable_seqscan = off');
    const { rows } = await admin.query(`EXPLAIN (FORMAT JSON) ${sql}`, values);
    const nodes: string[] = [];
    const walk = (node: { 'Node Type': string; Plans?: unknown[] }) => {
      nodes.push(node['Node Type']);
      for (const child of node.Plans ?? []) walk(child as typeof node);
    };
    walk(rows[0]['QUERY PLAN'][0].Plan);
    return nodes;
  } finally {
    await admin.query('ROLLBACK');
  }
}

describe('the link cache warming read on PostgreSQL', () => {
  it('reads each page from the links_by_age index, newest first, without sorting the active links', async () => {
    const store = await createPostgresLinkStore({ connectionString: TEST_DATABASE_URL, schema });
    try {
      for (let i = 0; i < 50; i++) {
        const code = `w${i}`;
        const made = { code, codeKey: code, originalUrl: `https://example.com/${i}`, createdAt: NOW + i };
        await store.create({ ...made, expiresAt: NOW + 86_400_000 }, NOW);
      }
      await admin.query(`ANALYZE ${schema}.links`);
      const { first, after } = recentLinksSql(`${schema}.links`);
      // A sort here means every page reads and sorts every active link: minutes at a million.
      for (const nodes of [await planNodes(first, [NOW, 10]), await planNodes(after, [NOW, 10, NOW + 25, 'w25'])]) {
        expect(nodes.some((type) => type.includes('Sort'))).toBe(false);
        expect(nodes.some((type) => type.includes('Index'))).toBe(true);
      }
      // And the statements still answer what the store promises: newest first, from the cursor.
      const page = await store.recentActiveLinks?.(3, NOW, { createdAt: NOW + 25, codeKey: 'w25' });
      expect(page?.map((link) => link.code)).toEqual(['w24', 'w23', 'w22']);
    } finally {
      await store.close();
    }
  });
});
