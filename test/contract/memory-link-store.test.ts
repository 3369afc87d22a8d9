import { createMemoryLinkStore } from '../../core/memory-link-store.js';
import { describeLinkManagementContract } from './link-management-contract.js';
import { describeLinkOptionsContract } from './link-options-contract.js';
import { describeLinkStoreContract } from './link-store-contract.js';

describeLinkStoreContract('memory', async () => ({ store: createMemoryLinkStore() }));
describeLinkManagementContract('memory', async () => ({ store: createMemoryLinkStore() }));
describeLinkOptionsContract('memory', async () => ({ store: createMemoryLinkStore() }));
