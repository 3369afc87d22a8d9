import type { RawVisit } from '../../core/management/visits/visits.js';
import type { ClickRecorder } from '../../core/rules/clicks.js';
import type { Link } from '../../core/store/link-store.js';
import type { WebhookEvents } from '../../core/webhooks/webhook-events.js';
import { CLICKS_PER_DELIVERY } from '../../core/webhooks/webhook-payloads.js';
import type { NewDelivery, Webhook } from '../../core/webhooks/webhook-store.js';
import { createRawVisitColumns } from '../clicks/raw-visit-columns.js';
import type { VisitParser } from '../clicks/visit-parser.js';
import { clickJsonTexts } from './click-json.js';

/** Clicks held for the next beat at most; beyond it (a store down for long) the newest are not told. */
const MAX_HELD_CLICKS = 50_000;
/** A click handed over without its visit (`VISITS=off`): it carries its time alone. */
const NO_VISIT: RawVisit = Object.freeze({
  referer: undefined,
  userAgent: undefined,
  country: undefined,
  private: true,
});

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
 * `link.clicked` off the redirect's path: a click only asks whether an endpoint takes its link
 * owner's clicks (a Set lookup) and, if one does, is held as the click counter holds visits (typed-array
 * columns of the beat's distinct strings: no object kept per click). On the beat the clicks are
 * parsed as stored visits are, each link read once, and each endpoint of a link's owner (and the
 * administrator's) that takes clicks gets one delivery with the beat's clicks, at most
 * `CLICKS_PER_DELIVERY` each. One signed POST per click cost a busy server 1.87× the CPU per
 * redirect; a quiet link's click still arrives alone within about a second.
 */
export function createClickEvents(options: ClickEventsOptions) {
  const { events, logger } = options;
  const held = createRawVisitColumns();
  let dropped = 0;
  let flushing: Promise<void> | undefined;

  const record: ClickRecorder = (codeKey, at, visit, ownerId) => {
    if (!events.directory.takesClicksOf(ownerId)) return;
    if (held.length >= MAX_HELD_CLICKS) {
      dropped++;
      return;
    }
    held.push(codeKey, at, visit ?? NO_VISIT);
  };

  const queueHeld = async () => {
    if (dropped > 0) {
      logger.warn({ dropped }, 'clicks were not told to webhooks: too many waited');
      dropped = 0;
    }
    if (held.length === 0) return;
    const clicks = held.take();
    const links = new Map<number, Link | undefined>();
    for (let i = 0; i < clicks.length; i++) {
      const code = clicks.codeKeys[i] as number;
      if (!links.has(code)) links.set(code, await options.findLink(clicks.strings[code] as string));
    }
    const texts = clickJsonTexts(clicks, options.baseUrl, options.parseVisit?.facts, (code) => links.get(code));
    // Each endpoint's clicks of this beat, in the order they came: an endpoint is one owner's
    // (or the administrator's), so one delivery may carry clicks on many of its links.
    const perEndpoint = new Map<number, { texts: string[]; times: number[] }>();
    const endpointsOf = new Map<number | undefined, Webhook[]>();
    for (let i = 0; i < clicks.length; i++) {
      const text = texts[i];
      const link = links.get(clicks.codeKeys[i] as number);
      if (text === undefined || link === undefined) continue;
      let endpoints = endpointsOf.get(link.ownerId);
      if (endpoints === undefined) {
        endpoints = events.directory.matching(link.ownerId, 'link.clicked');
        endpointsOf.set(link.ownerId, endpoints);
      }
      for (const { id } of endpoints) {
        const told = perEndpoint.get(id);
        if (told === undefined) perEndpoint.set(id, { texts: [text], times: [clicks.times[i] as number] });
        else {
          told.texts.push(text);
          told.times.push(clicks.times[i] as number);
        }
      }
    }
    const deliveries: NewDelivery[] = [];
    for (const [webhookId, told] of perEndpoint)
      for (let from = 0; from < told.texts.length; from += CLICKS_PER_DELIVERY) {
        const to = Math.min(told.texts.length, from + CLICKS_PER_DELIVERY);
        // A delivery's timestamp is its newest click's.
        const newest = Math.max(...told.times.slice(from, to));
        const data = `{"clicks":[${told.texts.slice(from, to).join(',')}]}`;
        deliveries.push(events.deliveryTo(webhookId, 'link.clicked', newest, data));
      }
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
