import { afterAll, beforeEach } from 'vitest';

/** What a contract suite is given: a way to make a fresh store, and to throw its data away after. */
export type StoreFactory<S> = () => Promise<{ store: S; dispose?: () => Promise<void> }>;

/**
 * Gives each test of the calling `describe` a fresh store from `factory` (through `use`), and
 * closes and disposes of every store once the suite is done: every contract suite sets up alike.
 */
export function freshStorePerTest<S extends { close(): Promise<void> }>(
  factory: StoreFactory<S>,
  use: (store: S) => void,
): void {
  const disposers: Array<() => Promise<void>> = [];
  beforeEach(async () => {
    const made = await factory();
    use(made.store);
    disposers.push(async () => {
      await made.store.close().catch(() => {});
      await made.dispose?.();
    });
  });
  afterAll(async () => {
    for (const dispose of disposers) await dispose();
  });
}
