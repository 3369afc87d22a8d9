import type { ClickRecorder } from '../../core/rules/clicks.js';
import { createWebhookDirectory } from '../../core/webhooks/webhook-directory.js';
import { createWebhookEvents } from '../../core/webhooks/webhook-events.js';
import type { WebhookRouteOptions } from '../../core/webhooks/webhook-routes.js';
import type { VisitParser } from '../clicks/visit-parser.js';
import type { ServerLinkStore } from '../stores/server-link-store.js';
import { createClickEvents } from './click-events.js';
import { startWebhookSender, type WebhookSender } from './webhook-sender.js';

/** How often the endpoints other instances added or removed are read again. */
const DIRECTORY_REFRESH_MS = 2000;

export interface StartWebhooksOptions {
  store: ServerLinkStore;
  baseUrl: string;
  blockPrivateTargets: boolean;
  logger: { warn: (fields: object, message: string) => void };
  parseVisit?: VisitParser;
}

/**
 * The server's webhooks: the endpoints known in memory, link events queued by the store wrapper
 * (`events`, for `withLinkEvents`), clicks told off the redirect's path (`onClick`), the routes'
 * options, and the sender of this process.
 */
export async function startWebhooks(options: StartWebhooksOptions) {
  const { store, logger } = options;
  const directory = createWebhookDirectory(store);
  await directory.refresh();
  directory.start(DIRECTORY_REFRESH_MS, (error) => logger.warn({ err: error }, 'webhook endpoints could not be read'));
  let sender: WebhookSender | undefined;
  const nudge = () => sender?.nudge();
  const events = createWebhookEvents({
    store,
    directory,
    baseUrl: options.baseUrl,
    now: Date.now,
    onQueued: nudge,
    onError: (error) => logger.warn({ err: error }, 'webhook deliveries could not be queued'),
  });
  sender = startWebhookSender({ store, blockPrivateTargets: options.blockPrivateTargets, logger });
  const clickEvents = createClickEvents({
    events,
    findLink: (codeKey) => store.findByCodeKey(codeKey),
    parseVisit: options.parseVisit,
    baseUrl: options.baseUrl,
    logger,
  });
  const routes: WebhookRouteOptions = {
    store,
    directory,
    blockPrivateTargets: options.blockPrivateTargets,
    onQueued: nudge,
  };
  const onClick: ClickRecorder = clickEvents.record;
  return {
    events,
    routes,
    onClick,
    /** Queues the clicks held, then waits for the deliveries in flight. */
    async stop() {
      directory.stop();
      await clickEvents.close();
      await sender?.stop();
    },
  };
}

/** One recorder telling both the click counter and the webhooks (either may be absent). */
export function bothRecorders(first: ClickRecorder | undefined, second: ClickRecorder): ClickRecorder {
  if (first === undefined) return second;
  return (codeKey, at, visit, ownerId) => {
    first(codeKey, at, visit, ownerId);
    second(codeKey, at, visit, ownerId);
  };
}
