import cluster from 'node:cluster';
import { createLinklet } from '../core/handler.js';
import { storedClicksOf } from '../core/redirect/rules/link-rule-options.js';
import { createVisitLedger } from '../core/redirect/rules/visit-ledger.js';
import { withLinkEvents } from '../core/webhooks/with-link-events.js';
import { createClickCounter } from './clicks/click-counter.js';
import { openCountryLookup } from './clicks/geoip.js';
import { createAgentParser, createVisitParser } from './clicks/visit-parser.js';
import { startVisitRetention } from './clicks/visit-retention.js';
import { withVisitsDeletedAfterWrites } from './clicks/visits-deleted-after-writes.js';
import { clientAddressOf } from './http/client-address.js';
import { createHttpServer } from './http/http-server.js';
import { createRateLimiter } from './http/rate-limit.js';
import { createRequestLog } from './http/request-log.js';
import { loadWebAppFiles } from './http/web-app-files.js';
import { createScryptPasswordHasher } from './passwords/scrypt-password-hasher.js';
import { runPrimary } from './process/cluster.js';
import { collectGarbage } from './process/collect-garbage.js';
import { type Config, ConfigError, loadConfig } from './process/config.js';
import { type LogFormat, logFormatOf } from './process/log-format.js';
import { createLogger, type Logger } from './process/logger.js';
import { migrationLogOf } from './process/migration-log.js';
import { openServerWarning } from './process/open-server-warning.js';
import { createRedactor, secretsOf } from './process/redact-secrets.js';
import { closeGracefully, stopOnSignals } from './process/shutdown.js';
import { announceServing } from './process/start-line.js';
import { withLinkCache } from './stores/cache/link-cache.js';
import { warmLinkCache } from './stores/cache/warm-link-cache.js';
import { openLinkStore } from './stores/open-link-store.js';
import { sqliteFaultOf, startHint } from './stores/sqlite/sqlite-errors.js';
import { bothRecorders, startWebhooks } from './webhooks/start-webhooks.js';

/** Below this many warmed links the rows read are too few to be worth a full collection. */
const WARMED_LINKS_WORTH_A_COLLECTION = 10_000;
/**
 * Nor below this many imported rows. A file of 50,000 leaves about 40 MB of it in V8's old
 * generation, where it waits for a full collection that V8 runs only once the heap has grown to
 * about four times what lives: a second file sent right after (the way to import more than
 * 10 MiB) piles its own on top. Collecting after each large import takes 13–25 ms.
 */
const IMPORTED_ROWS_WORTH_A_COLLECTION = 10_000;

/**
 * The companion server's entry point: configuration, store, HTTP, and a shutdown that loses
 * nothing. Run it directly (`node dist/server/main.js`) under systemd or in a container, so
 * SIGTERM reaches this process and not an npm wrapper. With `WORKERS` above 1 this process is
 * the primary of a node:cluster and each worker runs `serve`.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const format = logFormatOf(config.logFormat);
  const logger = createLogger(config.logLevel, redact, format);
  const warning = cluster.isPrimary ? openServerWarning(config) : undefined; // once, not per worker
  if (warning) logger.warn({ host: config.host }, warning);
  if (config.workers > 1 && cluster.isPrimary) {
    await runPrimary(config, logger, format);
    return;
  }
  await serve(config, logger, format);
}

/** One serving process: store (with its cache), handler, HTTP server, graceful shutdown. */
async function serve(config: Config, logger: Logger, format: LogFormat): Promise<void> {
  const opened = await openLinkStore(config.database, {
    poolSize: config.databasePoolSize,
    onBackgroundError: (error) => logger.warn({ err: error }, 'link store connection failed'),
    onMigrated: migrationLogOf(logger),
  });
  const countryOfAddress = await countryLookupOf(config);
  const visits = config.clickCounting && config.visits ? visitCaptureOf(config, countryOfAddress) : undefined;
  const webhooks = await startWebhooks({
    store: opened,
    baseUrl: config.baseUrl,
    blockPrivateTargets: config.blockPrivateTargets,
    logger,
    parseVisit: visits?.parse,
  });
  // Under the cache, so that every create, change and delete, whichever path made it, is told.
  const store = withLinkCache(withLinkEvents(opened, webhooks.events), {
    maxEntries: config.cacheEntries,
    maxBytes: config.cacheMaxBytes,
    maxAgeMs: config.cacheSeconds * 1000,
  });
  const log = createRequestLog(logger, { accessLog: config.accessLog });
  // Written to the store underneath the cache (which has nothing to do with clicks).
  // Redirect rules classify a visitor as visits do (one parser, one cache of User-Agents).
  const agentOf = visits?.parse.facts.agentOf ?? createAgentParser();
  // Clicks of links with a visit limit, until the click counter has written them.
  const ledger = createVisitLedger(storedClicksOf(opened));
  const clicks = config.clickCounting
    ? createClickCounter({
        write: (batch) => opened.addClicks(batch),
        logger,
        ledger,
        ...(visits && { parseVisit: visits.parse, visitsRetentionDays: config.visitsRetentionDays }),
      })
    : undefined;
  // Also with VISITS=off or no click counting: visits kept from before must still go in time.
  const retention = startVisitRetention({
    addClicks: (batch) => opened.addClicks(batch),
    retentionDays: config.visitsRetentionDays,
    logger,
  });
  const rateLimiter =
    config.rateLimitPerMinute > 0
      ? createRateLimiter({
          perMinute: config.rateLimitPerMinute,
          perKeyPerMinute: config.rateLimitPerKeyPerMinute,
          importRowsPerMinute: config.importRowsPerMinute,
          trustedProxies: config.trustedProxies,
          redisUrl: config.redisUrl,
          // One per database, so instances sharing it (and the Redis) name a client alike.
          keySecret: config.redisUrl === undefined ? undefined : await opened.signingSecret(),
          logger,
        })
      : undefined;
  const onClick = bothRecorders(clicks?.count, webhooks.onClick);
  const webApp = await loadWebAppFiles();
  if (webApp === undefined) logger.warn('the web app is not built (npm run build:webapp): / answers JSON only');
  // One Linklet: the fast paths answer with the handler's own settings and create answerer.
  const linklet = createLinklet({
    // A link's visits are deleted after this process has written what it counted of them.
    store: clicks ? withVisitsDeletedAfterWrites(store, clicks.flushAll) : store,
    baseUrl: config.baseUrl,
    timeZone: config.timeZone,
    maxUrlLength: config.maxUrlLength,
    blockPrivateTargets: config.blockPrivateTargets,
    apiKey: config.apiKey,
    redirectCacheSeconds: config.redirectCacheSeconds,
    compatExpireDuration: config.compatExpireDuration,
    passwordHasher: createScryptPasswordHasher(),
    webApp,
    onClick,
    visits: visits?.capture,
    linkRules: {
      agentOf,
      ledger,
      countryHeader: config.countryHeader,
      countryOfAddress: countryOfAddress && ((address: string) => countryOfAddress(address, undefined)),
    },
    webhooks: webhooks.routes,
    importBudget: rateLimiter?.importBudget,
    passwordTries: rateLimiter?.passwordTries,
    // After the answer is written: the rows read are garbage now (see IMPORTED_ROWS_WORTH_A_COLLECTION).
    onImported: (rows) => {
      if (rows >= IMPORTED_ROWS_WORTH_A_COLLECTION) setImmediate(collectGarbage);
    },
    healthDetails: rateLimiter && (() => ({ rate_limits: rateLimiter.state() })),
    onError: (error, { level, request, requestId }) =>
      log.failed(error, level, { id: requestId ?? '', method: request.method, path: new URL(request.url).pathname }),
  });
  const { settings } = linklet;
  const server = createHttpServer(linklet.fetch, {
    log,
    shortUrls: {
      store,
      onClick,
      visits: visits?.capture,
      redirectCacheSeconds: settings.redirectCacheSeconds,
      timeZone: settings.timeZone,
      linkRules: linklet.linkRules,
    },
    creates: { answer: linklet.answerShorten, maxBodyBytes: settings.maxBodyBytes, apiKey: config.apiKey },
    headersTimeoutMs: config.headersTimeoutMs,
    requestTimeoutMs: config.requestTimeoutMs,
    connections: {
      maxConnections: config.maxConnections,
      perClient: config.maxConnectionsPerClient,
      trustedProxies: config.trustedProxies,
    },
    rateLimiter,
    clientOf: clientAddressOf(config.trustedProxies),
  });

  stopOnSignals(
    async (signal) => {
      logger.info({ signal }, 'shutting down');
      await closeGracefully(server);
      await clicks?.close(); // the last counts, while the store is still open
      await webhooks.stop(); // the last clicks queued, the deliveries in flight recorded
      await retention.stop();
      rateLimiter?.close();
      await store.close();
      logger.info('stopped');
      logger.flush();
    },
    (error) => {
      logger.fatal({ err: error }, 'shutdown failed');
      logger.flush();
    },
  );
  server.on('error', (error) => {
    logger.fatal({ err: error }, `cannot listen on ${config.host}:${config.port}`);
    // Set first: should nothing be left to keep the process alive while the store closes, Node
    // ends it on its own, and it must still end as a failure (seen on Node.js 26: exit 0).
    process.exitCode = 1;
    void store.close().finally(() => process.exit(1));
  });
  server.listen(config.port, config.host, () => {
    if (config.cacheEntries > 0) {
      warmLinkCache(opened, store).then(
        ({ links, ms }) => {
          if (links === 0) return;
          // The rows read to fill the cache are garbage now, tens of MB of it at scale (see collectGarbage).
          if (links >= WARMED_LINKS_WORTH_A_COLLECTION) collectGarbage();
          logger.info({ links, ms }, `link cache warmed: ${links} links in ${ms} ms`);
        },
        (error) => logger.warn({ err: error }, 'the link cache could not be warmed; it fills as links are clicked'),
      );
    }
    if (cluster.isWorker) {
      logger.info('worker listening'); // the primary announces the service once all are up
      return;
    }
    announceServing(logger, config, format);
  });
}

/** The local country database (`GEOIP_DB`), opened once for visits and redirect rules; undefined when not set. */
async function countryLookupOf(config: Config) {
  if (config.geoipDb === undefined) return undefined;
  try {
    return await openCountryLookup(config.geoipDb, config.trustedProxies);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new ConfigError(
      `Invalid configuration:\n  GEOIP_DB: cannot read a country database at ${config.geoipDb}: ${why}`,
    );
  }
}

/**
 * What redirects hand over for visits and how the batch writer parses it: the country from the
 * trusted proxy's header, else (with `GEOIP_DB`) from the local database; never a remote service.
 */
function visitCaptureOf(config: Config, countryOfAddress: Awaited<ReturnType<typeof countryLookupOf>>) {
  return {
    capture: { countryHeader: config.countryHeader, lookUpAddress: countryOfAddress !== undefined },
    parse: createVisitParser(countryOfAddress ? { countryOfAddress } : {}),
  };
}

// Every message and log line of this process goes through it: no password or key is ever printed.
const redact = createRedactor(secretsOf(process.env));

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(redact(`${error.message}\nSee docs/operations.md, "Settings".\n`));
  } else {
    const hint = sqliteFaultOf(error) ? startHint : '';
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(redact(`Linklet could not start: ${message}${hint}\n`));
  }
  process.exit(1);
});
