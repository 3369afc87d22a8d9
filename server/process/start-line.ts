import { type Config, describeDatabase } from './config.js';
import type { LogFormat } from './log-format.js';
import type { Logger } from './logger.js';

/** The keys command as an operator types it (server/process/keys-command.ts). */
export const MAKE_KEY_COMMAND = 'npm run --silent keys -- create --name NAME';

/**
 * The sentence a person reads when the server starts in a terminal: where it serves, on what,
 * and the next step (a key, for the web app and the extension).
 */
export function startSentence(config: Config): string {
  const { database } = config;
  const store = database.kind === 'sqlite' ? `SQLite (${database.path})` : 'PostgreSQL';
  const workers = config.workers > 1 ? ` with ${config.workers} workers` : '';
  return `Linklet is serving ${config.baseUrl} on ${store}${workers}. Make a key: ${MAKE_KEY_COMMAND}`;
}

/**
 * Says once that the service is up: the sentence in a terminal; in JSON lines the same start
 * with the fields a machine reads (url, host, port, store; workers in a cluster), as before.
 */
export function announceServing(logger: Logger, config: Config, format: LogFormat): void {
  if (format === 'pretty') {
    logger.info(startSentence(config));
    return;
  }
  const fields = {
    url: config.baseUrl,
    host: config.host,
    port: config.port,
    store: describeDatabase(config.database),
  };
  logger.info(
    config.workers > 1 ? { ...fields, workers: config.workers } : fields,
    `Linklet is serving ${config.baseUrl}`,
  );
}
