import { LinkletError } from '../../core/http/errors.js';
import { codeKey, isValidCode } from '../../core/rules/code.js';
import { isRealDate } from '../../ui/real-date.js';
import { isUnder } from '../openable-url.js';

/** A link as the v1 API reports it, once checked. */
export interface ApiLink {
  shortUrl: string;
  originalUrl: string;
  code: string;
  expiresAt: number;
}

/** What the extension asked for, which a reply must match. */
export interface SentRequest {
  url: string;
  /** Absent or '' when the backend was to generate the code. */
  code?: string;
  /** Every short URL must lie under this base (`https://sho.rt` or the extension's open page). */
  shortUrlBase: string;
}

/**
 * Checks a success envelope's `data` against what was sent, and returns the link. A server (or
 * anyone on a plain-http path to it) could otherwise make the extension copy, QR-encode and open
 * a `data:` or `file:` URL, or store a date that breaks every later page. Throws a `LinkletError`
 * whose message names the field, so the user sees which rule the reply broke.
 */
export function readApiLink(data: unknown, sent: SentRequest): ApiLink {
  const fields = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  const { short_url: shortUrl, original_url: originalUrl, code, expiration_date: expiration } = fields;
  const where = sent.shortUrlBase;
  if (typeof shortUrl !== 'string' || !isUnder(shortUrl, where)) {
    throw untrusted(
      `its short_url (${describe(shortUrl)}) is not under ${where}/. If the server's BASE_URL differs from the address in the options, set the options to the BASE_URL.`,
    );
  }
  if (originalUrl !== sent.url.trim()) {
    throw untrusted(`its original_url (${describe(originalUrl)}) is not the URL that was sent.`);
  }
  if (typeof code !== 'string' || !isValidCode(code) || (sent.code && codeKey(code) !== codeKey(sent.code))) {
    const wanted = sent.code ? ` and the one asked for ('${sent.code}')` : '';
    throw untrusted(`its code (${describe(code)}) is not a valid Linklet code${wanted}.`);
  }
  const expiresAt = typeof expiration === 'string' ? Date.parse(expiration) : Number.NaN;
  if (!isRealDate(expiresAt)) {
    throw untrusted(`its expiration_date (${describe(expiration)}) is not a date.`);
  }
  return { shortUrl, originalUrl, code, expiresAt };
}

function untrusted(reason: string): LinkletError {
  return new LinkletError('invalid', `The server's answer was refused: ${reason}`);
}

/**
 * A value for a message: strings shortened, so a hostile reply cannot flood the UI or the log.
 * The cut never falls inside a surrogate pair (an emoji, say), which would show as a broken
 * character; `JSON.stringify` has already escaped any lone surrogate.
 */
export function describe(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  if (text.length <= 80) return text;
  const end = isHighSurrogate(text.charCodeAt(76)) ? 76 : 77;
  return `${text.slice(0, end)}…`;
}

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
