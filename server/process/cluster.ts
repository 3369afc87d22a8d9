import cluster, { type Worker } from 'node:cluster';
import { openLinkStore } from '../stores/open-link-store.js';
import type { Config } from './config.js';
import type { LogFormat } from './log-format.js';
import type { Logger } from './logger.js';
import { migrationLogOf } from './migration-log.js';
import { announceServing } from './start-line.js';

/** How long workers get to finish their requests after a signal before they are killed. */
const STOP_DEADLINE_MS = 15_000;
/** A worker that dies sooner than this after its start counts as failing quickly. */
const QUICK_FAILURE_MS = 10_000;

/**
 * The primary of `WORKERS` > 1: it migrates the database once, forks the workers (which share
 * the port; node:cluster hands connections out round-robin), starts a new worker when one dies
 * (waiting longer each time workers keep dying quickly), and on SIGTERM or SIGINT passes the
 * signal on, waits for every worker's graceful shutdown and exits 0 (1 if any worker failed to
 * stop cleanly or had to be killed).
 */
export async function runPrimary(config: Config, logger: Logger, format: LogFormat): Promise<void> {
  // Workers find the schema ready, and a database that cannot be opened stops the start here
  // with its message, instead of as workers dying one after another.
  const store = await openLinkStore(config.database, {
    poolSize: 1,
    onMigrated: migrationLogOf(logger),
  });
  await store.close();

  const workers = new Map<Worker, { startedAt: number; listening: boolean }>();
  let announced = false;
  let stopping = false;
  let cleanStop = true;
  let quickFailures = 0;

  const fork = () => workers.set(cluster.fork(), { startedAt: Date.now(), listening: false });

  const finish = () => {
    logger.info('stopped');
    logger.flush();
    process.exit(cleanStop ? 0 : 1);
  };

  const stop = (signal: NodeJS.Signals, reason?: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, reason }, 'shutting down');
    if (workers.size === 0) finish();
    for (const worker of workers.keys()) worker.process.kill(signal);
    setTimeout(() => {
      cleanStop = false;
      logger.error(
        { workers: [...workers.keys()].map((worker) => worker.process.pid) },
        'workers did not stop; killing them',
      );
      for (const worker of workers.keys()) worker.process.kill('SIGKILL');
    }, STOP_DEADLINE_MS).unref();
  };

  cluster.on('listening', (worker) => {
    const state = workers.get(worker);
    if (state) state.listening = true;
    if (!announced && [...workers.values()].filter((w) => w.listening).length === config.workers) {
      announced = true;
      announceServing(logger, config, format);
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    const state = workers.get(worker);
    workers.delete(worker);
    const workerPid = worker.process.pid;
    if (stopping) {
      if (code !== 0) cleanStop = false;
      if (workers.size === 0) finish();
      return;
    }
    if (!announced) {
      // Workers run the same code on the same machine: if one cannot start, neither will the rest.
      logger.fatal({ workerPid, code, signal }, 'a worker could not start; stopping');
      cleanStop = false;
      stop('SIGTERM', 'worker failed to start');
      return;
    }
    const lived = Date.now() - (state?.startedAt ?? 0);
    quickFailures = lived < QUICK_FAILURE_MS ? quickFailures + 1 : 0;
    const delay = quickFailures === 0 ? 0 : Math.min(10_000, 100 * 2 ** (quickFailures - 1));
    logger.error({ workerPid, code, signal, restartInMs: delay }, 'worker exited; starting another');
    setTimeout(() => {
      if (!stopping) fork();
    }, delay);
  });

  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  for (let i = 0; i < config.workers; i++) fork();
}
