import { createMemoryLinkStore } from '../../core/memory-link-store.js';
import { describeLinkStoreContract } from './link-store-contract.js';

describeLinkStoreContract('memory', async () => ({ store: createMemoryLinkStore() }));
