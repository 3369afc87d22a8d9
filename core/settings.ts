import type { PasswordHasher } from './passwords/password-hasher.js';
import { createPbkdf2PasswordHasher } from './passwords/pbkdf2-password-hasher.js';
import { DEFAULT_REDIRECT_CACHE_SECONDS } from './redirect/redirect-cache.js';
import { DEFAULT_COMPAT_EXPIRE_DURATION, type ExpireDuration } from './rules/expiry.js';
import { type CodeGenerator, createRandomCodeGenerator } from './rules/generate-code.js';
import { DEFAULT_MAX_URL_LENGTH, trimTrailingSlashes } from './rules/url.js';
import type { ShortenContext } from './shorten/shorten.js';
import type { LinkStore } from './store/link-store.js';

/** What an adapter chooses for Linklet: its store, base URL, clock and limits. */
export interface LinkletOptions {
  store: LinkStore;
  /** Where short URLs live, e.g. `https://sho.rt`; short URLs are built from it, never from `Host`. */
  baseUrl: string;
  /** Epoch ms; injected so tests are exact. */
  now?: () => number;
  generateCode?: CodeGenerator;
  /** IANA zone of legacy `expiration_date`s. */
  timeZone?: string;
  maxUrlLength?: number;
  /** Refuse targets on private, loopback and link-local addresses (see `OriginalUrlRules`). */
  blockPrivateTargets?: boolean;
  maxBodyBytes?: number;
  /** When set, POSTs must carry it as `X-API-Key` or `Authorization: Bearer …` (401 otherwise). */
  apiKey?: string;
  /** Longest a browser may keep a redirect (`redirectCacheControl`); 0: never. */
  redirectCacheSeconds?: number;
  /** How link passwords are hashed and checked (the server's scrypt); WebCrypto PBKDF2 when not given. */
  passwordHasher?: PasswordHasher;
  /** How long links made through the YOURLS and Shlink APIs live when the client gives no expiry. */
  compatExpireDuration?: ExpireDuration;
}

/** `LinkletOptions` with every default filled in: what the handler and the fast paths both run on. */
export interface LinkletSettings {
  store: LinkStore;
  baseUrl: string;
  now: () => number;
  timeZone: string;
  maxUrlLength: number;
  maxBodyBytes: number;
  apiKey: string | undefined;
  redirectCacheSeconds: number;
  /** Hashes and checks link passwords. */
  passwords: PasswordHasher;
  compatExpireDuration: ExpireDuration;
  /** What a create needs. */
  shorten: ShortenContext;
}

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024;

/**
 * Fills in the defaults once. The handler and an adapter's fast path (the server's Node path for
 * creates) both take their rules from here, so they cannot drift apart.
 */
export function settingsOf(options: LinkletOptions): LinkletSettings {
  const baseUrl = trimTrailingSlashes(options.baseUrl);
  const now = options.now ?? Date.now;
  const maxUrlLength = options.maxUrlLength ?? DEFAULT_MAX_URL_LENGTH;
  const passwords = options.passwordHasher ?? createPbkdf2PasswordHasher();
  return {
    store: options.store,
    baseUrl,
    now,
    timeZone: options.timeZone ?? 'UTC',
    maxUrlLength,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    apiKey: options.apiKey,
    redirectCacheSeconds: options.redirectCacheSeconds ?? DEFAULT_REDIRECT_CACHE_SECONDS,
    passwords,
    compatExpireDuration: options.compatExpireDuration ?? DEFAULT_COMPAT_EXPIRE_DURATION,
    shorten: {
      store: options.store,
      passwords,
      now,
      generateCode: options.generateCode ?? createRandomCodeGenerator(),
      urlRules: {
        maxLength: maxUrlLength,
        ownHosts: [new URL(baseUrl).host],
        blockPrivateTargets: options.blockPrivateTargets ?? false,
      },
    },
  };
}
