import type { ApiCatalogOptions, ApiResponseSpec } from '../api-docs/api-operation.js';
import { error } from '../api-docs/operation-parts.js';

// The answers the owners and links operations share.

export const keyRequired = error('No API key, or one that is unknown or revoked.');
export const adminOnly = error(
  "An owner's key: only the administrator's key (`API_KEY`) manages keys (and nobody over HTTP when it is not set).",
);
export const tooLarge = (options: ApiCatalogOptions): ApiResponseSpec =>
  error(`The request body is too large: it may be at most ${options.maxBodyBytes} bytes.`);
export const storeDown = error('The link store cannot answer now.');
export const noSuchLink = error(
  'No link of yours has this code: a missing link and another owner’s get the same answer. Also a code that cannot be one.',
);
export const codeParameter = {
  name: 'code',
  description: 'The short code, percent-encoded as UTF-8; ASCII case does not matter.',
};
