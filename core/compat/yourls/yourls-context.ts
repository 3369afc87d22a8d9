import type { Caller } from '../../management/owners/authenticate.js';
import type { LinkletSettings } from '../../settings.js';
import type { ManagedLinkStore } from '../../store/link-management-store.js';
import type { YourlsResult } from './yourls-format.js';
import type { YourlsParams } from './yourls-params.js';

// A leaf the actions import, so no action imports the module that registers them.

/** What the actions run on: the handler's settings and its store (the server's, with owners). */
export interface YourlsContext {
  store: ManagedLinkStore;
  settings: LinkletSettings;
}

/** One `action` of YOURLS's API: the request's fields and its caller (undefined: no key) in, a result out. */
export type YourlsAction = (
  params: YourlsParams,
  caller: Caller | undefined,
  context: YourlsContext,
) => Promise<YourlsResult>;

/** The text YOURLS's stats actions give for `format=simple`. */
export const NEED_XML_OR_JSON = 'Need either XML or JSON format for stats';
