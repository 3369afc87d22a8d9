import * as sdk from '@shlinkio/shlink-js-sdk';
import * as contract from '@shlinkio/shlink-js-sdk/api-contract';
import * as fetchEntry from '@shlinkio/shlink-js-sdk/fetch';
// The SDK's own declarations: types.d.ts alone imports nothing, so it is the one NodeNext reads whole.
import type * as T from '../../node_modules/@shlinkio/shlink-js-sdk/dist/api-contract/types.js';

// `@shlinkio/shlink-js-sdk` declares its entry points by re-exporting siblings without file
// extensions, which NodeNext module resolution (this project's) does not follow, so its classes
// come through untyped. The methods the tests call are typed here from the SDK's own types.

export type { ProblemDetailsError } from '../../node_modules/@shlinkio/shlink-js-sdk/dist/api-contract/errors.js';

type Id = T.ShlinkShortUrlIdentifier;

/** The `ShlinkApiClient` methods the tests use, as the SDK's ShlinkApiClient.d.ts declares them. */
export interface ShlinkApi {
  health(): Promise<T.ShlinkHealth>;
  listShortUrls(params?: T.ShlinkShortUrlsListParams): Promise<T.ShlinkShortUrlsList>;
  createShortUrl(data: T.ShlinkCreateShortUrlData): Promise<T.ShlinkShortUrl>;
  getShortUrl(id: Id): Promise<T.ShlinkShortUrl>;
  updateShortUrl(id: Id, data: T.ShlinkEditShortUrlData): Promise<T.ShlinkShortUrl>;
  deleteShortUrl(id: Id): Promise<void>;
  getShortUrlVisits(id: Id, params?: T.ShlinkVisitsParams): Promise<T.ShlinkVisitsList>;
  getShortUrlRedirectRules(id: Id): Promise<T.ShlinkRedirectRulesList>;
  setShortUrlRedirectRules(id: Id, data: T.ShlinkSetRedirectRulesData): Promise<T.ShlinkRedirectRulesList>;
  deleteShortUrlVisits(id: Id): Promise<T.ShlinkDeleteVisitsResult>;
  editTag(renaming: T.ShlinkRenaming): Promise<T.ShlinkRenaming>;
  deleteTags(tags: string[]): Promise<{ tags: string[] }>;
  getVisitsOverview(): Promise<T.ShlinkVisitsOverview>;
  getOrphanVisits(params?: T.ShlinkOrphanVisitsParams): Promise<T.ShlinkVisitsList>;
  getNonOrphanVisits(params?: T.ShlinkWithDomainVisitsParams): Promise<T.ShlinkVisitsList>;
  getTagVisits(tag: string, params?: T.ShlinkWithDomainVisitsParams): Promise<T.ShlinkVisitsList>;
  getDomainVisits(domain: string, params?: T.ShlinkVisitsParams): Promise<T.ShlinkVisitsList>;
  listTags(): Promise<T.ShlinkTagsList>;
  tagsStats(): Promise<T.ShlinkTagsStatsList>;
  listDomains(): Promise<T.ShlinkDomainsList>;
}

/** The SDK's error types (`ErrorType`): what its clients compare a problem's `type` with. */
export const ErrorType = (contract as unknown as { ErrorType: Record<string, string> }).ErrorType;

/** A `ShlinkApiClient` on the SDK's fetch-based HTTP client, as a browser or Node client makes one. */
export function shlinkClient(baseUrl: string, apiKey: string): ShlinkApi {
  const { FetchHttpClient } = fetchEntry as unknown as { FetchHttpClient: new () => unknown };
  const { ShlinkApiClient } = sdk as unknown as {
    ShlinkApiClient: new (http: unknown, server: { baseUrl: string; apiKey: string }) => ShlinkApi;
  };
  return new ShlinkApiClient(new FetchHttpClient(), { baseUrl, apiKey });
}
