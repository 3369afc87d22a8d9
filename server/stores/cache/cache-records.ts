import type { LocatedLink } from '../../../core/redirect/resolve.js';
import type { RedirectRule } from '../../../core/rules/redirect-rule.js';
import { hasRedirectOptions } from '../../../core/store/link-rule-fields.js';
import type { Link } from '../../../core/store/link-store.js';
import { equalsUtf8, utf8Length, writeUtf8 } from './utf8-bytes.js';

// A link's record in the cache's arena: u32 slot, u16 ASCII URL length (its top bit set when
// the submitted URL differs and follows), u8 code key bytes, u8 code bytes (0: the code is its
// key); then the code key, the code, the ASCII URL, the submitted URL (u32 length, UTF-8), and
// the link's rules and limits (u32 length, UTF-8 JSON) when it has any, and its owner's id (u32)
// when it has one (a click's webhooks are asked by owner; see `ClickRecorder`).
const HEADER_BYTES = 8;
// The top bit of the slot field: the link asks for a password (the hash itself is never kept).
const PROTECTED = 0x8000_0000;
// The next bit: the link's rules and limits follow (a plain link's record is as it was).
const OPTIONS_FOLLOW = 0x4000_0000;
// The next: the owner's id ends the record (a link nobody owns keeps its record as it was).
const OWNER_FOLLOWS = 0x2000_0000;
const SLOT_BITS = 0x1fff_ffff;
const ORIGINAL_FOLLOWS = 0x8000;
/** The longest ASCII URL a record holds (longer links are not cached). */
const MAX_HREF_BYTES = 0x7fff;
const PRINTABLE_ASCII = /^[\x21-\x7e]*$/;
// UTF-8 cannot carry a lone surrogate, so text with one would not come back the same.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * A link read from the cache: a fresh object per hit (the cache keeps no objects), carrying the
 * `Location` the record holds, so a redirect never parses the URL again.
 */
class CachedLink implements LocatedLink {
  readonly #location: string;
  readonly #passwordProtected: boolean;
  constructor(
    readonly code: string,
    readonly codeKey: string,
    readonly originalUrl: string,
    readonly createdAt: number,
    readonly expiresAt: number,
    location: string,
    passwordProtected: boolean,
    ownerId: number | undefined,
  ) {
    this.#location = location;
    this.#passwordProtected = passwordProtected;
    if (ownerId !== undefined) this.ownerId = ownerId;
  }
  declare readonly ownerId?: number;
  /** The link asks for a password: the redirect leaves it to the core (the hash is not here). */
  get passwordProtected(): boolean {
    return this.#passwordProtected;
  }
  get location(): string {
    return this.#location;
  }
}

/** A cached link with rules, a limit, a start or query forwarding: what its redirect decides by. */
class CachedLinkWithOptions extends CachedLink {
  declare readonly redirectRules?: RedirectRule[];
  declare readonly maxVisits?: number;
  declare readonly validSince?: number;
  declare readonly forwardQuery?: boolean;
  /** Each rule's `Location`, parsed once when the link was kept (see `RuleLocatedLink`). */
  declare readonly ruleLocations?: string[];
}

type RedirectOptions = Pick<Link, 'redirectRules' | 'maxVisits' | 'validSince' | 'forwardQuery'> & {
  ruleLocations?: string[];
};

/** The rules and limits of a link as its record keeps them (JSON), or undefined when it has none. */
function optionsText(link: Link): string | undefined {
  if (!hasRedirectOptions(link)) return undefined;
  const options: RedirectOptions = {};
  if (link.redirectRules !== undefined) {
    options.redirectRules = link.redirectRules;
    // A target that no longer parses (edited by hand) is left to the redirect's own parse, which reports it.
    const locations = link.redirectRules.map(({ targetUrl }) => URL.parse(targetUrl)?.href);
    if (locations.every((location) => location !== undefined)) options.ruleLocations = locations as string[];
  }
  if (link.maxVisits !== undefined) options.maxVisits = link.maxVisits;
  if (link.validSince !== undefined) options.validSince = link.validSince;
  if (link.forwardQuery === true) options.forwardQuery = true;
  return JSON.stringify(options);
}

// Rules and limits read lately, by their text: links of one campaign often share the same rules,
// and a hit costs a string's hash, not a parse. Never changed once parsed (links are immutable).
const parsedOptions = new Map<string, RedirectOptions>();
const MAX_PARSED_OPTIONS = 1024;

function optionsOf(text: string): RedirectOptions {
  let options = parsedOptions.get(text);
  if (options === undefined) {
    options = JSON.parse(text) as RedirectOptions;
    if (parsedOptions.size >= MAX_PARSED_OPTIONS) parsedOptions.clear();
    parsedOptions.set(text, options);
  }
  return options;
}

/**
 * The bytes a link's record takes, or undefined when a record cannot hold it exactly (a code
 * over 255 UTF-8 bytes, an ASCII URL that is not ASCII or is too long, a lone surrogate).
 */
export function recordBytes(key: string, link: Link, href: string): number | undefined {
  const keyBytes = utf8Length(key);
  const codeBytes = link.code === key ? 0 : utf8Length(link.code);
  if (keyBytes > 255 || codeBytes > 255 || href.length > MAX_HREF_BYTES || !PRINTABLE_ASCII.test(href)) {
    return undefined;
  }
  if (LONE_SURROGATE.test(key) || LONE_SURROGATE.test(link.code)) return undefined;
  let bytes = HEADER_BYTES + keyBytes + codeBytes + href.length;
  if (link.originalUrl !== href) {
    if (LONE_SURROGATE.test(link.originalUrl)) return undefined;
    bytes += 4 + Buffer.byteLength(link.originalUrl);
  }
  if (link.ownerId !== undefined) bytes += 4;
  if (!hasRedirectOptions(link)) return bytes;
  const options = optionsText(link) as string;
  return LONE_SURROGATE.test(options) ? undefined : bytes + 4 + Buffer.byteLength(options);
}

/** Writes a link's record (of `recordBytes` bytes) at `at`. */
export function writeRecord(arena: Buffer, at: number, slot: number, key: string, link: Link, href: string): void {
  const codeBytes = link.code === key ? 0 : utf8Length(link.code);
  const withOriginal = link.originalUrl !== href;
  const protectedLink = link.passwordHash !== undefined || link.passwordProtected === true;
  const options = optionsText(link);
  const owned = link.ownerId !== undefined;
  arena.writeUInt32LE(
    (protectedLink ? PROTECTED : 0) + (options === undefined ? 0 : OPTIONS_FOLLOW) + (owned ? OWNER_FOLLOWS : 0) + slot,
    at,
  );
  arena.writeUInt16LE(href.length | (withOriginal ? ORIGINAL_FOLLOWS : 0), at + 4);
  arena[at + 6] = utf8Length(key);
  arena[at + 7] = codeBytes;
  let p = writeUtf8(arena, at + HEADER_BYTES, key);
  if (codeBytes !== 0) p = writeUtf8(arena, p, link.code);
  p += arena.write(href, p, 'latin1');
  if (withOriginal) {
    const written = arena.write(link.originalUrl, p + 4, 'utf8');
    arena.writeUInt32LE(written, p);
    p += 4 + written;
  }
  if (options !== undefined) {
    const written = arena.write(options, p + 4, 'utf8');
    arena.writeUInt32LE(written, p);
    p += 4 + written;
  }
  if (owned) arena.writeUInt32LE(link.ownerId as number, p);
}

/** The slot a record belongs to. */
export const slotOfRecord = (arena: Buffer, at: number): number => arena.readUInt32LE(at) & SLOT_BITS;

/** The length of the record at `at`, read from the record itself (live or not). */
export function recordBytesAt(arena: Buffer, at: number): number {
  const hrefField = arena.readUInt16LE(at + 4);
  let bytes = HEADER_BYTES + (arena[at + 6] as number) + (arena[at + 7] as number) + (hrefField & MAX_HREF_BYTES);
  if (hrefField & ORIGINAL_FOLLOWS) bytes += 4 + arena.readUInt32LE(at + bytes);
  const flags = arena.readUInt32LE(at);
  if (flags & OPTIONS_FOLLOW) bytes += 4 + arena.readUInt32LE(at + bytes);
  if (flags & OWNER_FOLLOWS) bytes += 4;
  return bytes;
}

/** Whether the record at `at` is for this code key. */
export const recordHasKey = (arena: Buffer, at: number, key: string): boolean =>
  equalsUtf8(arena, at + HEADER_BYTES, arena[at + 6] as number, key);

/** The link of the record at `at`, as a new object; its key is the one it was found by. */
export function readRecord(arena: Buffer, at: number, key: string, createdAt: number, expiresAt: number): LocatedLink {
  const hrefField = arena.readUInt16LE(at + 4);
  const codeBytes = arena[at + 7] as number;
  let p = at + HEADER_BYTES + (arena[at + 6] as number);
  const code = codeBytes === 0 ? key : arena.toString('utf8', p, p + codeBytes);
  p += codeBytes;
  const hrefEnd = p + (hrefField & MAX_HREF_BYTES);
  const href = arena.toString('latin1', p, hrefEnd);
  let end = hrefEnd;
  let originalUrl = href;
  if (hrefField & ORIGINAL_FOLLOWS) {
    end = hrefEnd + 4 + arena.readUInt32LE(hrefEnd);
    originalUrl = arena.toString('utf8', hrefEnd + 4, end);
  }
  const flags = arena.readUInt32LE(at);
  const protectedLink = flags >= PROTECTED;
  const optionsEnd = flags & OPTIONS_FOLLOW ? end + 4 + arena.readUInt32LE(end) : end;
  const ownerId = flags & OWNER_FOLLOWS ? arena.readUInt32LE(optionsEnd) : undefined;
  if (!(flags & OPTIONS_FOLLOW))
    return new CachedLink(code, key, originalUrl, createdAt, expiresAt, href, protectedLink, ownerId);
  const link = new CachedLinkWithOptions(code, key, originalUrl, createdAt, expiresAt, href, protectedLink, ownerId);
  return Object.assign(link, optionsOf(arena.toString('utf8', end + 4, optionsEnd)));
}
