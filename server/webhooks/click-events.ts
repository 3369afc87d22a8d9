import type { RawVisit } from '../../core/management/visits/visits.js';
import type { ClickRecorder } from '../../core/rules/clicks.js';
import type { Link } from '../../core/store/link-store.js';
import type { WebhookEvents } from '../../core/webhooks/webhook-events.js';
import { clickEventData } from '../../core/webhooks/webhook-payloads.js';
import type { VisitParser } from '../clicks/visit-parser.js';

/** Clicks held for the next beat at most; beyond it (a store down for long) the newest are not told. */
const MAX_HELD_CLICKS = 50_000;

export interface ClickEventsOptions {
  events: WebhookEvents;
  /** The link holding a code key (its owner, its code), read from the store. */
  findLink: (codeKey: string) => Promise<Link | undefined>;
  /** Makes what a visit keeps of its raw strings (absent with `VISITS=off`: clicks carry their time). */
  parseVisit?: VisitParser;
  baseUrl: string;
  logger: { warn: (fields: object, message: string) => void };
  /** How often held clicks are queued (default 1 s). */
  everyMs?: number;
}

/**
 * `link.clicked` off the redirect's path: a click only asks whether any endpoint takes clicks
 * (a Set lookup) and, if one does, is held as it came (no parsing, no store); on the beat each
 * is parsed as a stored visit is, its link read once per beat, and a delivery queued for each
 * endpoint of the link's owner (and the administrator's) that takes clicks.
 */
export function createClickEvents(options: ClickEventsOptions) {
  const { events, logger } = options;
  let held: Array<{ codeKey: string; at: number; visit: RawVisit | undefined }> = [];
  let dropped = 0;
  let flushing: Promise<void> | undefined;

  const record: ClickRecorder = (codeKey, at, visit) => {
    if (!events.directory.wants('link.clicked')) return;
    if (held.length >= MAX_HELD_CLICKS) {
      dropped++;
      return;
    }
    held.push({ codeKey, at, visit });
  };

  const queueHeld = async () => {
    const clicks = held;
    held = [];
    if (dropped > 0) {
      logger.warn({ dropped }, 'clicks were not told to webhooks: too many waited');
      dropped = 0;
    }
    if (clicks.length === 0) return;
    const links = new Map<string, Link | undefined>();
    for (const { codeKey } of clicks) if (!links.has(codeKey)) links.set(codeKey, await options.findLink(codeKey));
    const deliveries = clicks.flatMap(({ codeKey, at, visit }) => {
      const link = links.get(codeKey);
      if (link === undefined) return [];
      const row = visit && options.parseVisit?.(codeKey, at, visit);
      const data = clickEventData(link, options.baseUrl, at, row, visit !== undefined && !visit.private);
      return events.deliveriesOf('link.clicked', link.ownerId, at, data);
    });
    await events.enqueue(deliveries);
  };

  const flush = async () => {
    if (flushing) return flushing;
    flushing = queueHeld()
      .catch((error: unknown) => logger.warn({ err: error }, 'clicks could not be told to webhooks'))
      .finally(() => {
        flushing = undefined;
      });
    return flushing;
  };
  const timer = setInterval(() => void flush(), options.everyMs ?? 1000);
  timer.unref?.();
  return {
    record,
    flush,
    /** Queues what is held and stops. */
    async close() {
      clearInterval(timer);
      await flushing;
      await flush();
    },
  };
}
