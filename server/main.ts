import cluster from 'node:cluster';
import { LinkletError } from '../core/errors.js';
import { createHandler } from '../core/handler.js';
import { closeGracefully, createHttpServer } from './http/http-server.js';
import { createRateLimiter } from './http/rate-limit.js';
import { runPrimary } from './process/cluster.js';
import { type Config, ConfigError, describeDatabase, loadConfig } from './process/config.js';
import { createLogger, type Logger } from './process/logger.js';
import { openServerWarning } from './process/open-server-warning.js';
import { createRedactor, secretsOf } from './process/redact-secrets.js';
import { withLinkCache } from './stores/link-cache.js';
import { openLinkStore } from './stores/open-link-store.js';
import { sqliteFaultOf, startHint } from './stores/sqlite/sqlite-faults.js';

/**
 * The companion server's entry point: configuration, store, HTTP, and a shutdown that loses
 * nothing. Run it directly (`node dist/server/main.js`) under systemd or in a container, so
 * SIGTERM reaches this process and not an npm wrapper. With `WORKERS` above 1 this process is
 * the primary of a node:cluster and each worker runs `serve`.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel, redact);
  const warning = cluster.isPrimary ? openServerWarning(config) : undefined; // once, not per worker
  if (warning) logger.warn({ host: config.host }, warning);
  if (config.workers > 1 && cluster.isPrimary) {
    await runPrimary(config, logger);
    return;
  }
  await serve(config, logger);
}

/** One serving process: store (with its cache), handler, HTTP server, graceful shutdown. */
async function serve(config: Config, logger: Logger): Promise<void> {
  const store = withLinkCache(await openLinkStore(config.database, { poolSize: config.databasePoolSize }), {
    maxEntries: config.cacheEntries,
    maxBytes: config.cacheMaxBytes,
    maxAgeMs: config.cacheSeconds * 1000,
  });
  const logFailure = (error: unknown, details: { reqId: string | undefined; method: string; url: string }) => {
    // A LinkletError here is a 503: the store cannot take writes now (locked, full, read-only).
    if (error instanceof LinkletError) logger.warn({ err: error, ...details }, 'store unavailable');
    else logger.error({ err: error, ...details }, 'request failed');
  };
  const handler = createHandler({
    store,
    baseUrl: config.baseUrl,
    timeZone: config.timeZone,
    maxUrlLength: config.maxUrlLength,
    blockPrivateTargets: config.blockPrivateTargets,
    apiKey: config.apiKey,
    onError: (error, request) =>
      logFailure(error, { reqId: requestIdOf(request), method: request.method, url: request.url }),
  });
  const { server, requestIdOf } = createHttpServer(handler, {
    logger,
    shortUrls: { store },
    creates: {
      answer: handler.answerShorten,
      maxBodyBytes: handler.maxBodyBytes,
      apiKey: config.apiKey,
      onError: logFailure,
    },
    headersTimeoutMs: config.headersTimeoutMs,
    requestTimeoutMs: config.requestTimeoutMs,
    rateLimiter:
      config.rateLimitPerMinute > 0
        ? createRateLimiter({ perMinute: config.rateLimitPerMinute, trustedProxies: config.trustedProxies })
        : undefined,
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    try {
      await closeGracefully(server);
      await store.close();
      logger.info('stopped');
      logger.flush();
      process.exit(0);
    } catch (error) {
      logger.fatal({ err: error }, 'shutdown failed');
      logger.flush();
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  server.on('error', (error) => {
    logger.fatal({ err: error }, `cannot listen on ${config.host}:${config.port}`);
    void store.close().finally(() => process.exit(1));
  });
  server.listen(config.port, config.host, () => {
    if (cluster.isWorker) {
      logger.info('worker listening'); // the primary announces the service once all are up
      return;
    }
    logger.info(
      { url: config.baseUrl, host: config.host, port: config.port, store: describeDatabase(config.database) },
      `Linklet is serving ${config.baseUrl}`,
    );
  });
}

// Every message and log line of this process goes through it: no password or key is ever printed.
const redact = createRedactor(secretsOf(process.env));

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(redact(`${error.message}\nSee README.md, "Configuration".\n`));
  } else {
    const hint = sqliteFaultOf(error) ? startHint : '';
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(redact(`Linklet could not start: ${message}${hint}\n`));
  }
  process.exit(1);
});
