import { shlinkOperations } from '../compat/shlink/shlink-operations.js';
import { yourlsOperations } from '../compat/yourls/yourls-operations.js';
import { claimOperations } from '../management/claims/claim-operations.js';
import { linkOperations } from '../management/links/link-operations.js';
import { tagOperations } from '../management/links/tag-operations.js';
import { keyOperations } from '../management/owners/key-operations.js';
import { portingOperations } from '../management/porting/porting-operations.js';
import { redirectOperations } from '../redirect/redirect-operations.js';
import { shortenOperations } from '../shorten/shorten-operations.js';
import { serviceOperations, siteOperations } from '../site/site-operations.js';
import { webhookOperations } from '../webhooks/webhook-operations.js';
import type { ApiCatalogOptions, ApiOperationSpec } from './api-operation.js';

/**
 * Every route of the API, in the order the documents list them: each feature declares its own
 * operations beside its routes; this only puts them together. Owners' routes are listed where
 * the store keeps owners (the server's; not the extension's).
 */
export function listApiOperations(options: ApiCatalogOptions): ApiOperationSpec[] {
  const operations = [
    ...shortenOperations(options),
    ...siteOperations(),
    ...redirectOperations(),
    ...serviceOperations(),
  ];
  return options.management
    ? [
        ...operations,
        ...keyOperations(options),
        ...linkOperations(options),
        ...portingOperations(),
        ...claimOperations(options),
        ...tagOperations(options),
        ...(options.webhooks ? webhookOperations(options) : []),
        ...yourlsOperations(),
        ...shlinkOperations(),
      ]
    : operations;
}
