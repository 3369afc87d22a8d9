import { PRIVATE, type ShlinkContext, type ShlinkHandler } from './shlink-context.js';
import { mercureNotConfigured, notSupported } from './shlink-problem.js';

/** The Shlink API level Linklet answers as (health's `version`): what its clients check features by. */
export const SHLINK_API_VERSION = '4.4.0';

/** Shlink's not-found redirects: none, as Linklet answers unknown and expired codes with its own pages. */
const NO_REDIRECTS = { baseUrlRedirect: null, regular404Redirect: null, invalidShortUrlRedirect: null };

/** Shlink's health check, its one domain and its live updates (which Linklet does not have). */
export function serverHandlers(context: ShlinkContext): Record<string, ShlinkHandler> {
  return {
    /** As Shlink's `HealthAction`: `pass` or `fail` (503) by whether the store answers. */
    async health(c) {
      let pass = true;
      try {
        await context.store.ping();
      } catch {
        pass = false;
      }
      const body = {
        status: pass ? 'pass' : 'fail',
        version: SHLINK_API_VERSION,
        links: { about: 'https://shlink.io', project: 'https://github.com/shlinkio/shlink' },
      };
      return c.body(JSON.stringify(body), pass ? 200 : 503, { ...PRIVATE, 'Content-Type': 'application/health+json' });
    },
    async listDomains(c) {
      await context.callerOf(c.req.raw);
      const domain = { domain: context.host, isDefault: true, redirects: NO_REDIRECTS };
      return c.json({ domains: { data: [domain], defaultRedirects: NO_REDIRECTS } }, 200, PRIVATE);
    },
    async editDomainRedirects(c) {
      await context.callerOf(c.req.raw);
      throw notSupported(
        'Linklet answers unknown and expired short codes with its own pages; it has no not-found redirects.',
      );
    },
    async mercureInfo(c) {
      await context.callerOf(c.req.raw);
      throw mercureNotConfigured();
    },
  };
}
