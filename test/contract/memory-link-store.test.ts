import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { describeBulkEditsContract } from './bulk-edits-contract.js';
import { describeLinkClaimContract } from './link-claim-contract.js';
import { describeLinkManagementContract } from './link-management-contract.js';
import { describeLinkOptionsContract } from './link-options-contract.js';
import { describeLinkPasswordContract, describeManagedLinkPasswordContract } from './link-password-contract.js';
import { describeLinkRulesContract } from './link-rules-contract.js';
import { describeLinkStoreContract } from './link-store-contract.js';
import { describeRecentLinksContract } from './recent-links-contract.js';
import { describeVisitContract } from './visit-contract.js';

describeLinkStoreContract('memory', async () => ({ store: createMemoryLinkStore() }));
describeLinkManagementContract('memory', async () => ({ store: createMemoryLinkStore() }));
describeVisitContract('memory', async () => ({ store: createMemoryLinkStore() }));
describeLinkPasswordContract('memory', async () => ({ store: createMemoryLinkStore() }));
describeManagedLinkPasswordContract('memory', async () => ({ store: createMemoryLinkStore() }));
describeLinkOptionsContract('memory', async () => ({ store: createMemoryLinkStore() }));
describeBulkEditsContract('memory', async () => ({ store: createMemoryLinkStore() }));
// The memory store has no warming read (nothing to warm from): its cases find no op and check nothing.
describeRecentLinksContract('memory', async () => ({ store: createMemoryLinkStore() }), { required: false });

describeLinkRulesContract('memory', async () => ({ store: createMemoryLinkStore() }));
describeLinkClaimContract('memory', async () => ({ store: createMemoryLinkStore() }));
