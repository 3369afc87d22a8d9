import { type ClickBatch, dayOf } from '../../core/rules/clicks.js';

/** How often visits past their retention are looked for, besides at start. */
export const RETENTION_EVERY_MS = 60 * 60 * 1000;
/**
 * Batches of removals per look: each removes at most `FOLD_PER_BATCH` stored rows (bounded
 * writes), so a backlog (a server stopped for weeks) goes over a few looks rather than in one
 * long transaction. A look with nothing to remove costs an index read per batch.
 */
const BATCHES_PER_LOOK = 10;

export interface VisitRetentionOptions {
  /** The store's click write: a batch of no clicks with `foldBefore` only removes old visits. */
  addClicks: (batch: ClickBatch) => Promise<void>;
  /** `VISITS_RETENTION_DAYS`. */
  retentionDays: number;
  logger: { warn: (fields: object, message: string) => void };
  everyMs?: number;
  now?: () => number;
}

/**
 * Removes visits older than the retention (their daily counts stay: they are folded) at start and
 * then every `everyMs`, on its own: click batches fold too, but a quiet server writes none, and one
 * started with `VISITS=off` writes batches without visits, which left old visits listed for good.
 * The timer does not keep the process alive; `stop` ends it and waits for a look under way.
 */
export function startVisitRetention(options: VisitRetentionOptions) {
  const { addClicks, retentionDays, logger } = options;
  const now = options.now ?? Date.now;
  let stopped = false;
  let looking: Promise<void> | undefined;
  const look = async () => {
    for (let batch = 0; batch < BATCHES_PER_LOOK && !stopped; batch++) {
      const at = now();
      await addClicks({
        day: dayOf(at),
        codeKeys: [],
        counts: [],
        foldBefore: Math.floor(at / 1000) - retentionDays * 86_400,
      });
    }
  };
  const start = () => {
    if (looking !== undefined || stopped) return;
    looking = look()
      .catch((error: unknown) =>
        logger.warn({ err: error }, 'old visits could not be removed; the next look tries again'),
      )
      .finally(() => {
        looking = undefined;
      });
  };
  start();
  const timer = setInterval(start, options.everyMs ?? RETENTION_EVERY_MS);
  timer.unref();
  return {
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(timer);
      await looking;
    },
  };
}
