import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { ManagedLinkStore } from '../../core/store/link-management-store.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { withLinkCache } from '../../server/stores/cache/link-cache.js';
import { sqliteFaultOf } from '../../server/stores/sqlite/sqlite-errors.js';
import { createSqliteLinkStore } from '../../server/stores/sqlite/sqlite-link-store.js';
import { withFaultsAsUnavailable } from '../../server/stores/store-faults.js';
import type { StoreFactory } from './fresh-store.js';
import { describeLinkClaimContract } from './link-claim-contract.js';
import { describeLinkManagementContract } from './link-management-contract.js';
import { describeLinkOptionsContract } from './link-options-contract.js';
import { describeLinkPasswordContract, describeManagedLinkPasswordContract } from './link-password-contract.js';
import { describeLinkRulesContract } from './link-rules-contract.js';
import { describeLinkStoreContract } from './link-store-contract.js';
import { describeVisitContract } from './visit-contract.js';

// The wrappers the server puts around its store keep the store's contract, alone and stacked as
// `server/main.ts` stacks them. The cache is given the contract's clock, so it really caches
// (the contract's links are dated 2026-01-31: on the wall clock they would all be expired).

const dir = mkdtempSync(join(tmpdir(), 'linklet-wrappers-'));
let files = 0;
const freshPath = () => join(dir, `store-${++files}.db`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CACHE = { maxEntries: 100, maxAgeMs: 60_000 };

describeLinkStoreContract('memory behind the link cache', async (clock) => ({
  store: withLinkCache(createMemoryLinkStore(), { ...CACHE, now: clock }),
}));

describeLinkStoreContract('memory behind a full one-entry link cache', async (clock) => ({
  store: withLinkCache(createMemoryLinkStore(), { maxEntries: 1, maxAgeMs: 60_000, now: clock }),
}));

describeLinkStoreContract('memory behind the link cache turned off', async (clock) => ({
  store: withLinkCache(createMemoryLinkStore(), { maxEntries: 0, maxAgeMs: 60_000, now: clock }),
}));

describeLinkStoreContract('memory with faults as 503', async () => ({
  store: withFaultsAsUnavailable(createMemoryLinkStore(), sqliteFaultOf),
}));

/** A SQLite store wrapped as `server/main.ts` wraps it. */
const servedSqlite = (clock: () => number) =>
  withLinkCache(withFaultsAsUnavailable(createSqliteLinkStore(freshPath()), sqliteFaultOf), { ...CACHE, now: clock });

describeLinkStoreContract('sqlite as the server serves it: link cache over faults as 503', async (clock) => ({
  store: servedSqlite(clock),
}));

// The management API's operations, titles and tags, passwords and visits through the same
// wrappers: a link changed or deleted through the cache is never answered from it afterwards.
const cachedMemory: StoreFactory<ManagedLinkStore> = async (clock) => ({
  store: withLinkCache(createMemoryLinkStore(), { ...CACHE, now: clock }),
});
const served: StoreFactory<ManagedLinkStore> = async (clock) => ({ store: servedSqlite(clock) });
for (const [name, factory] of [
  ['memory behind the link cache', cachedMemory],
  ['sqlite as the server serves it: link cache over faults as 503', served],
] as const) {
  describeLinkManagementContract(name, factory);
  describeLinkOptionsContract(name, factory);
  describeLinkRulesContract(name, factory);
  describeLinkClaimContract(name, factory);
  describeLinkPasswordContract(name, factory);
  describeManagedLinkPasswordContract(name, factory);
  describeVisitContract(name, factory);
}
