import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { describeLinkManagementContract } from './link-management-contract.js';
import { describeLinkOptionsContract } from './link-options-contract.js';
import { describeLinkPasswordContract, describeManagedLinkPasswordContract } from './link-password-contract.js';
import { describeLinkStoreContract } from './link-store-contract.js';
import { describeVisitContract } from './visit-contract.js';

describeLinkStoreContract('memory', async () => ({ store: createMemoryLinkStore() }));
describeLinkManagementContract('memory', async () => ({ store: createMemoryLinkStore() }));
describeVisitContract('memory', async () => ({ store: createMemoryLinkStore() }));
describeLinkPasswordContract('memory', async () => ({ store: createMemoryLinkStore() }));
describeManagedLinkPasswordContract('memory', async () => ({ store: createMemoryLinkStore() }));
describeLinkOptionsContract('memory', async () => ({ store: createMemoryLinkStore() }));
