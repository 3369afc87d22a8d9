import { afterAll, beforeEach } from 'vitest';
import type { LinkManagementStore } from '../../core/store/link-management-store.js';
import type { LinkStore } from '../../core/store/link-store.js';
import { NOW } from './link-store-contract.js';
import { withLookupChecked } from './lookup-checked.js';

/**
 * What a contract suite is given: a way to make a fresh store, and to throw its data away after.
 * A wrapper with a clock of its own (the link cache's) gets `clock`: the latest moment the suite
 * has handed the store (in a create, a patch or a delete), so that it ages links as the store does.
 */
export type StoreFactory<S> = (clock: () => number) => Promise<{ store: S; dispose?: () => Promise<void> }>;

/**
 * The store as a suite uses it: every `lookup` checked against `findByCodeKey` (made links read
 * for a redirect at once), and the times it is handed moved to `at`, which the factory's clock follows.
 */
function asUsed<S extends LinkStore>(made: S, at: (now: number) => number): S {
  const checked = withLookupChecked(made, true);
  const used = Object.create(checked) as S;
  used.create = (one, now) => checked.create(one, at(now));
  const managed = checked as unknown as Partial<LinkManagementStore>;
  const { updateLink, deleteLink } = managed;
  if (updateLink && deleteLink) {
    Object.assign(used, {
      updateLink: (codeKey, scope, patch, now) => updateLink(codeKey, scope, patch, at(now)),
      deleteLink: (codeKey, scope, now) => deleteLink(codeKey, scope, at(now)),
    } satisfies Pick<LinkManagementStore, 'updateLink' | 'deleteLink'>);
  }
  return used;
}

/**
 * Gives each test of the calling `describe` a fresh store from `factory` (through `use`), and
 * closes and disposes of every store once the suite is done: every contract suite sets up alike.
 */
export function freshStorePerTest<S extends LinkStore>(factory: StoreFactory<S>, use: (store: S) => void): void {
  const disposers: Array<() => Promise<void>> = [];
  let time = NOW;
  const at = (now: number) => {
    time = Math.max(time, now);
    return now;
  };
  beforeEach(async () => {
    time = NOW;
    const made = await factory(() => time);
    use(asUsed(made.store, at));
    disposers.push(async () => {
      await made.store.close().catch(() => {});
      await made.dispose?.();
    });
  });
  afterAll(async () => {
    for (const dispose of disposers) await dispose();
  });
}
