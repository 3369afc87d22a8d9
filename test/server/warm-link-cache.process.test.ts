import { describe, expect, it } from 'vitest';
import { createSqliteLinkStore } from '../../server/stores/sqlite/sqlite-link-store.js';
import { rawRequest } from '../raw-http.js';
import { useServerProcesses } from './use-server-processes.js';

// The built server warms its link cache from a SQLite file as it starts: the log says how many
// links it took, a warmed link redirects, and one disabled afterwards is not served from memory.
const servers = useServerProcesses('warm-link-cache');

const ADMIN = 'admin-key-for-the-warm-cache-process-test';
const SEEDED = 3200;

/** A SQLite file holding `count` active links, w0 the oldest, made before any server opens it. */
async function seededDb(path: string, count: number): Promise<void> {
  const store = createSqliteLinkStore(path);
  const now = Date.now();
  const creates = Array.from({ length: count }, (_, i) =>
    store.create(
      {
        code: `w${i}`,
        codeKey: `w${i}`,
        originalUrl: `https://example.com/seeded/${i}`,
        createdAt: now - 60_000 + i,
        expiresAt: now + 86_400_000,
      },
      now,
    ),
  );
  expect((await Promise.all(creates)).every((result) => result.created)).toBe(true);
  await store.close();
}

const get = (port: number, code: string) =>
  rawRequest(port, { method: 'GET', path: `/${code}`, headers: { Host: `localhost:${port}` } });

describe('warming the link cache on the server process', () => {
  it('logs the links it warmed, redirects them, and forgets one disabled after warming', async () => {
    const path = servers.freshDb();
    await seededDb(path, SEEDED);
    const server = await servers.start({ DATABASE_URL: `sqlite:${path}`, API_KEY: ADMIN });
    const [warmed] = await server.waitForLogs((entry) => String(entry.msg).startsWith('link cache warmed'), 1);
    expect(warmed?.msg).toMatch(new RegExp(`^link cache warmed: ${SEEDED} links in \\d+ ms$`));
    expect(warmed?.links).toBe(SEEDED);

    for (const code of ['w0', 'w1600', `w${SEEDED - 1}`]) {
      const answer = await get(server.port, code);
      expect(answer?.status, code).toBe(302);
      expect(answer?.headers.location).toBe(`https://example.com/seeded/${code.slice(1)}`);
    }

    const disabled = await fetch(`${server.origin}/api/v1/links/w1600`, {
      method: 'PATCH',
      headers: { 'X-API-Key': ADMIN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ disabled: true }),
    });
    expect(disabled.status).toBe(200);
    expect((await get(server.port, 'w1600'))?.status).toBe(410);
    expect((await get(server.port, 'w1601'))?.status).toBe(302);
  });
});
