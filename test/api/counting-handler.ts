import { storedClicksOf } from '../../core/redirect/rules/link-rule-options.js';
import { createVisitLedger } from '../../core/redirect/rules/visit-ledger.js';
import type { ManagedLinkStore } from '../../core/store/link-management-store.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { createClickCounter } from '../../server/clicks/click-counter.js';
import { withVisitRows } from '../../server/clicks/encoded-visits.js';
import { createVisitParser } from '../../server/clicks/visit-parser.js';
import { makeHandler, START } from './make-handler.js';

const quiet = { info() {}, warn() {}, error() {} };

/**
 * A server-like handler on a memory store whose clicks go through the server's real click
 * counter and visit parser (country from `CF-IPCountry`), on the handler's test clock; nothing is
 * written until `counter.flush()`. What the visit and peer-API tests all start from.
 */
export function makeCountingHandler(options: { apiKey: string; visitsRetentionDays?: number }) {
  const store = createMemoryLinkStore() as ManagedLinkStore;
  // The counter asks the time before the handler exists (its start): the handler's clock starts there too.
  let app: ReturnType<typeof makeHandler> | undefined;
  const parseVisit = createVisitParser();
  // Limited links' clicks, noted until the counter writes them (as server/main.ts wires it).
  const ledger = createVisitLedger(storedClicksOf(store));
  const counter = createClickCounter({
    write: (batch) => store.addClicks(withVisitRows(batch)),
    logger: quiet,
    writeEveryMs: 3_600_000,
    parseVisit,
    ledger,
    visitsRetentionDays: options.visitsRetentionDays ?? 90,
    now: () => app?.clock.now ?? START,
  });
  app = makeHandler({
    apiKey: options.apiKey,
    store,
    onClick: counter.count,
    visits: { countryHeader: 'cf-ipcountry' },
    linkRules: { agentOf: parseVisit.facts.agentOf, ledger, countryHeader: 'cf-ipcountry' },
  });
  return { store, counter, app };
}
