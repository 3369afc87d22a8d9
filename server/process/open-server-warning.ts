import { type Config, isLoopbackHost } from './config.js';

/**
 * The warning for a server that anyone can use: it listens beyond loopback with neither an API
 * key nor a rate limit, so anyone who reaches it can make links on its owner's domain (an open
 * redirector for phishing and spam). Undefined when the configuration is not open.
 */
export function openServerWarning(config: Config): string | undefined {
  if (isLoopbackHost(config.host) || config.apiKey !== undefined || config.rateLimitPerMinute > 0) return undefined;
  return (
    `Linklet listens on ${config.host}, beyond this machine, with no API_KEY and no RATE_LIMIT_PER_MINUTE: ` +
    'anyone who can reach it can make short links on your domain. Set API_KEY (only key holders create links), ' +
    'or RATE_LIMIT_PER_MINUTE, or listen on HOST=127.0.0.1 behind a reverse proxy that guards it. ' +
    'See docs/operations.md, "Security settings".'
  );
}
