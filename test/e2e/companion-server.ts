import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, type RunningServer, startServer } from '../../scripts/server-process.mjs';

/**
 * A real companion server (`node dist/server/main.js`) on SQLite in a temporary directory. It
 * can be stopped and started again on the same port and database file, as a server that went
 * down and came back.
 */
export interface Companion {
  /** The base URL the user enters in the options and short URLs start with. */
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Creates a link directly on the server, as another client would. */
  shorten(body: { original_url: string; custom_code?: string; expire_duration?: string }): Promise<Response>;
  /** `GET` of a short URL without following the redirect. */
  resolve(shortUrl: string): Promise<{ status: number; location: string | null }>;
  /** Stops the server and deletes its database. */
  dispose(): Promise<void>;
}

export async function createCompanion(): Promise<Companion> {
  const dir = await mkdtemp(join(tmpdir(), 'linklet-e2e-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: url,
    DATABASE_URL: `sqlite:${join(dir, 'linklet.db')}`,
    LOG_LEVEL: 'info',
  };
  let running: RunningServer | undefined;
  const stop = async () => {
    await running?.stop();
    running = undefined;
  };
  return {
    url,
    async start() {
      if (running) throw new Error('The companion server is already running.');
      running = await startServer(env);
    },
    stop,
    shorten: (body) =>
      fetch(`${url}/api/v1/shorten`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }),
    async resolve(shortUrl) {
      const response = await fetch(shortUrl, { redirect: 'manual' });
      await response.body?.cancel();
      return { status: response.status, location: response.headers.get('location') };
    },
    async dispose() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
