import { createHandler } from '../core/handler.js';
import { ConfigError, loadConfig } from './config.js';
import { closeGracefully, createHttpServer } from './http-server.js';
import { createLogger } from './logger.js';
import { openLinkStore } from './open-link-store.js';

/**
 * The companion server's entry point: configuration, store, HTTP, and a shutdown that loses
 * nothing. Run it directly (`node dist/server/main.js`) under systemd or in a container, so
 * SIGTERM reaches this process and not an npm wrapper.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel);
  const store = await openLinkStore(config.database);
  const { server, currentRequestId } = createHttpServer(
    createHandler({
      store,
      baseUrl: config.baseUrl,
      timeZone: config.timeZone,
      maxUrlLength: config.maxUrlLength,
      apiKey: config.apiKey,
      onError: (error, request) =>
        logger.error(
          { err: error, reqId: currentRequestId(), method: request.method, url: request.url },
          'request failed',
        ),
    }),
    { logger },
  );

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
    const store = config.database.kind === 'sqlite' ? `sqlite:${config.database.path}` : 'postgres';
    logger.info(
      { url: config.baseUrl, host: config.host, port: config.port, store },
      `Linklet is serving ${config.baseUrl}`,
    );
  });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\nSee README.md, "Configuration".\n`);
  } else {
    process.stderr.write(`Linklet could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  process.exit(1);
});
