import { deleteDB } from 'idb';
import { delay, HttpResponse, http, type RequestHandler } from 'msw';
import { type SetupServer, setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createHandler } from '../../core/handler.js';
import type { LinkStore } from '../../core/store/link-store.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { type LinkletDatabase, openLinkletDb } from '../../extension/backend/link-db.js';
import { createHistory, type History } from '../../extension/history/history.js';
import type { HistoryEntry } from '../../extension/history/history-entry.js';

/** The companion server the mocked network answers for. */
export const SERVER = 'https://sho.rt';

/** A fixed moment for tests that need exact times. */
export const NOW = Date.UTC(2026, 4, 20, 9, 30, 0);

let databases = 0;

/** A database name no other test uses, so every test starts from an empty IndexedDB. */
export function freshDbName(): string {
  databases += 1;
  return `linklet-test-${databases}-${Math.random().toString(36).slice(2)}`;
}

/** A history on a fresh database, with a way to close and delete it. */
export function freshHistory(): {
  history: History;
  open: () => Promise<LinkletDatabase>;
  dispose: () => Promise<void>;
} {
  const name = freshDbName();
  const opened: LinkletDatabase[] = [];
  const open = async () => {
    const db = await openLinkletDb(name);
    opened.push(db);
    return db;
  };
  return {
    history: createHistory(open),
    open,
    dispose: async () => {
      for (const db of opened) db.close();
      await deleteDB(name);
    },
  };
}

/** A history entry with sensible defaults: a pending link for `SERVER` made at `NOW`. */
export function entry(overrides: Partial<HistoryEntry> = {}): HistoryEntry {
  const code = overrides.code ?? 'abc2345';
  return {
    id: `id-${code}`,
    code,
    customCode: false,
    originalUrl: `https://example.com/${code}`,
    shortUrl: `${SERVER}/${code}/`,
    server: SERVER,
    status: 'pending',
    expire: '1week',
    createdAt: NOW,
    expiresAt: NOW + 7 * 86_400_000,
    attempts: 0,
    nextAttemptAt: NOW,
    ...overrides,
  };
}

/** A request the mocked server received, with its JSON body. */
export interface SeenRequest {
  method: string;
  url: string;
  /** Undefined for a body that is not JSON (a CSV upload). */
  body: Record<string, unknown> | undefined;
}

function jsonOrUndefined(text: string): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * msw for the whole file: every request must be answered by a handler the test installed (an
 * unexpected request fails the test), and every request is recorded in `requests`.
 */
export function useMockServer(): { server: SetupServer; requests: SeenRequest[] } {
  const server = setupServer();
  const requests: SeenRequest[] = [];
  server.events.on('request:start', async ({ request }) => {
    const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.clone().text();
    requests.push({
      method: request.method,
      url: request.url,
      body: jsonOrUndefined(text),
    });
  });
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    requests.length = 0;
  });
  afterAll(() => server.close());
  return { server, requests };
}

/** The real core handler on a memory store, served by msw as the companion server at `SERVER`. */
export function linkletServer(store: LinkStore = createMemoryLinkStore(), { latencyMs = 0 } = {}): RequestHandler {
  const handle = createHandler({ store, baseUrl: SERVER });
  return http.all(`${SERVER}/*`, async ({ request }) => {
    if (latencyMs > 0) await delay(latencyMs);
    return handle(request);
  });
}

/** The server is down: every request fails at the network level. */
export const serverDown = http.all(`${SERVER}/*`, () => HttpResponse.error());

/** A v1 error envelope, as the server sends it. */
export function errorReply(status: number, message: string): HttpResponse<{ status: string; message: string }> {
  return HttpResponse.json({ status: 'error', message }, { status });
}
