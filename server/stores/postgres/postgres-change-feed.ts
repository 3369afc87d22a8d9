import pg from 'pg';
import { type ChangeFeed, createListeners } from '../change-feed.js';

/** The channel every instance LISTENs on; the payload is the changed link's code key. */
export const CHANGES_CHANNEL = 'linklet_link_changes';

const HEARTBEAT_MS = 1000;
const RECONNECT_MS = [100, 250, 500, 1000, 2000];

/**
 * Other instances' patches and deletes on the same PostgreSQL, and edits made there by hand,
 * through `LISTEN`: a trigger on `links` sends `NOTIFY` with the code key of every row updated
 * (click counts aside) or deleted, delivered at commit. The listening connection is one of its
 * own (not the pool's). When it is lost (an error, an end, or a heartbeat unanswered for a
 * second, which catches a connection that died silently) the feed says `lost`, and notifications
 * sent meanwhile are gone for good, so the cache drops everything and stops caching; it says
 * `restored` once it listens again, after retries (0.1 s up to every 2 s).
 */
export function createPostgresChangeFeed(
  connectionString: string,
  applicationName = `linklet-listener-${process.pid}`,
): ChangeFeed & { close(): Promise<void> } {
  let client: pg.Client | undefined;
  let closed = true;
  let listening = false;
  let attempt = 0;
  let retry: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  const lose = (lost: pg.Client) => {
    if (lost !== client) return;
    client = undefined;
    clearInterval(heartbeat);
    lost.removeAllListeners('notification');
    lost.on('error', () => {}); // late errors of a connection given up on
    void lost.end().catch(() => {});
    if (listening) listeners.emit({ kind: 'lost' });
    listening = false;
    if (!closed) {
      retry = setTimeout(connect, RECONNECT_MS[Math.min(attempt, RECONNECT_MS.length - 1)]);
      retry.unref();
      attempt += 1;
    }
  };
  const connect = async () => {
    const next = new pg.Client({ connectionString, application_name: applicationName, keepAlive: true });
    client = next;
    next.on('error', () => lose(next));
    next.on('end', () => lose(next));
    next.on('notification', (message) => {
      if (message.payload) listeners.emit({ kind: 'changed', codeKeys: [message.payload] });
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch {
      lose(next);
      return;
    }
    if (client !== next || closed) return;
    attempt = 0;
    listening = true;
    listeners.emit({ kind: 'restored' });
    heartbeat = setInterval(() => {
      let answered = false;
      const timeout = setTimeout(() => answered || lose(next), HEARTBEAT_MS);
      timeout.unref();
      next.query('SELECT 1').then(
        () => {
          answered = true;
          clearTimeout(timeout);
        },
        () => lose(next),
      );
    }, HEARTBEAT_MS);
    heartbeat.unref();
  };
  const stop = async () => {
    closed = true;
    clearTimeout(retry);
    clearInterval(heartbeat);
    const current = client;
    client = undefined;
    listening = false;
    if (current) {
      current.removeAllListeners();
      current.on('error', () => {});
      await current.end().catch(() => {});
    }
  };
  const listeners = createListeners(
    () => {
      closed = false;
      // Until the first LISTEN is in place nothing is known: the cache starts as if lost.
      listeners.emit({ kind: 'lost' });
      void connect();
    },
    () => void stop(),
  );
  return { subscribe: listeners.subscribe, close: stop };
}
