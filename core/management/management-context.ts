import type { MiddlewareHandler } from 'hono';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import type { OriginalUrlRules } from '../rules/url.js';
import type { ManagedLinkStore } from '../store/link-management-store.js';
import type { Caller } from './owners/authenticate.js';
import type { ImportBudget } from './porting/import-budget.js';

// A leaf the feature routes import, so no route module imports the module that registers it.

export interface ManagementOptions {
  store: ManagedLinkStore;
  baseUrl: string;
  now: () => number;
  urlRules: OriginalUrlRules;
  /** The administrator's key (`API_KEY`), if set. */
  apiKey: string | undefined;
  /** The handler's body limit (413), for PATCH and POST bodies. */
  limitBody: MiddlewareHandler;
  /** The larger limit of an import's file (`MAX_IMPORT_BYTES`). */
  limitImportBody: MiddlewareHandler;
  /** When set, imports create at most this many links a minute per caller (see `ImportBudget`). */
  importBudget?: ImportBudget;
  /** Told once an import has read its file, with how many rows it read (see `HandlerOptions.onImported`). */
  onImported?: (rows: number) => void;
  /** Told of a failure after a streamed answer began (an export whose store failed mid-way). */
  onStreamError?: (error: unknown, request: Request, requestId: string | undefined) => void;
  /** Hashes a PATCH's new `password` (the handler's `settings.passwords`). */
  passwords?: PasswordHasher;
}

/** What the routes share: who is asking (undefined: no key; a 401 for a bad one). */
export interface ManagementContext extends ManagementOptions {
  callerOf(request: Request): Promise<Caller | undefined>;
}

/** The success envelope of the management API (v1 dialect). */
export function success<T>(message: string, data?: T) {
  return data === undefined ? { status: 'success' as const, message } : { status: 'success' as const, message, data };
}

/** Management answers are per caller: never kept by a shared cache. */
export const PRIVATE = { 'Cache-Control': 'no-store' } as const;
