import { LinkletError } from '../http/errors.js';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import { codeKey, normalizeCustomCode, RESERVED_CODES } from '../rules/code.js';
import { expiryFor } from '../rules/expiry.js';
import { type CodeGenerator, GENERATED_CODE_LENGTH } from '../rules/generate-code.js';
import { type OriginalUrlRules, parseOriginalUrl } from '../rules/url.js';
import type { Link, LinkStore } from '../store/link-store.js';
import type { ShortenRequest } from './shorten-request.js';

export interface ShortenContext {
  store: LinkStore;
  now: () => number;
  generateCode: CodeGenerator;
  urlRules: OriginalUrlRules;
  /** Hashes a create's `password` (`settingsOf` always gives one). */
  passwords?: PasswordHasher;
}

/** A made link, or the custom code's holder and the moment it becomes free. */
export type ShortenResult = { created: true; link: Link } | { created: false; code: string; availableAt: number };

/** The stored form of a create's password, if it has one. */
async function hashedPassword(password: string | undefined, passwords: PasswordHasher | undefined) {
  if (password === undefined) return undefined;
  if (passwords === undefined) throw new LinkletError('internal', 'This server cannot keep link passwords.');
  return passwords.hash(password);
}

/** Collisions tolerated at one length before generated codes grow by a character. */
const COLLISIONS_PER_LENGTH = 3;
const MAX_GENERATION_ATTEMPTS = 12;

/**
 * Makes a link: checks the URL and code rules, then lets the store claim the code atomically.
 * A generated code that collides is retried (growing after repeated collisions), so only a custom
 * code can come back as taken. A link made with an owner's key (`ownerId`) belongs to that owner.
 */
export async function shorten(
  request: ShortenRequest,
  context: ShortenContext,
  ownerId?: number,
): Promise<ShortenResult> {
  const originalUrl = parseOriginalUrl(request.originalUrl, context.urlRules);
  const now = context.now();
  const expiresAt = request.expiresAt ?? expiryFor(request.expireDuration, now);
  // Hashed once the other rules have passed: a refused create costs no slow hash.
  const passwordHash = await hashedPassword(request.password, context.passwords);
  const make = (code: string): Link => {
    const link: Link =
      ownerId === undefined
        ? { code, codeKey: codeKey(code), originalUrl, createdAt: now, expiresAt }
        : { code, codeKey: codeKey(code), originalUrl, createdAt: now, expiresAt, ownerId };
    if (passwordHash !== undefined) link.passwordHash = passwordHash;
    if (request.title !== undefined) link.title = request.title;
    if (request.tags !== undefined && request.tags.length > 0) link.tags = request.tags;
    if (request.redirectRules !== undefined && request.redirectRules.length > 0)
      link.redirectRules = request.redirectRules;
    if (request.maxVisits != null) link.maxVisits = request.maxVisits;
    if (request.validSince != null) link.validSince = request.validSince;
    if (request.forwardQuery === true) link.forwardQuery = true;
    if (request.claimTokenHash !== undefined) link.claimTokenHash = request.claimTokenHash;
    return link;
  };

  if (request.customCode !== undefined) {
    const link = make(normalizeCustomCode(request.customCode));
    const result = await context.store.create(link, now);
    return result.created ? result : { created: false, code: link.code, availableAt: result.holderExpiresAt };
  }

  for (let attempt = 0; attempt < MAX_GENERATION_ATTEMPTS; attempt++) {
    const length = GENERATED_CODE_LENGTH + Math.floor(attempt / COLLISIONS_PER_LENGTH);
    const link = make(context.generateCode(length));
    if (RESERVED_CODES.has(link.codeKey)) continue;
    const result = await context.store.create(link, now);
    if (result.created) return result;
  }
  throw new LinkletError('internal', 'No free code was found for this link; try again.');
}
