import { formatIsoDate, formatLegacyDate } from '../rules/dates.js';
import { trimTrailingSlashes } from '../rules/url.js';
import type { Link } from '../store/link-store.js';

/** The `data` member of a successful shorten response. */
export interface LinkRecord {
  short_url: string;
  original_url: string;
  code: string;
  expiration_date: string;
  /** A v1 create without a key: the proof its maker shows to claim the link (given once). */
  claim_token?: string;
}

export interface SuccessEnvelope {
  status: 'success';
  message: string;
  data: LinkRecord;
}

export interface ErrorEnvelope {
  status: 'error';
  message: string;
}

const SHORTENED = 'The URL was shortened.';

/** `{base}/{code}`: the code as its creator spelled it, Hangul left as Hangul. */
export function shortUrlFor(baseUrl: string, code: string): string {
  return `${trimTrailingSlashes(baseUrl)}/${code}`;
}

/** Legacy `/api.php` dialect: no trailing slash, `YYYY-MM-DD HH:MM:SS` in the display zone. */
export function toLegacyEnvelope(link: Link, baseUrl: string, timeZone: string): SuccessEnvelope {
  return {
    status: 'success',
    message: SHORTENED,
    data: {
      short_url: shortUrlFor(baseUrl, link.code),
      original_url: link.originalUrl,
      code: link.code,
      expiration_date: formatLegacyDate(link.expiresAt, timeZone),
    },
  };
}

/** v1 dialect: `short_url` ends in `/`, the date is ISO 8601 UTC with milliseconds. */
export function toV1Envelope(link: Link, baseUrl: string): SuccessEnvelope {
  return {
    status: 'success',
    message: SHORTENED,
    data: {
      short_url: `${shortUrlFor(baseUrl, link.code)}/`,
      original_url: link.originalUrl,
      code: link.code,
      expiration_date: formatIsoDate(link.expiresAt),
    },
  };
}

export function toErrorEnvelope(message: string): ErrorEnvelope {
  return { status: 'error', message };
}

/** The 409 messages: the legacy one names the moment the code frees up, the v1 one does not. */
export function codeTakenMessage(code: string, availableAt?: string): string {
  const base = `custom_code '${code}' is already in use`;
  return availableAt === undefined ? `${base}; choose another code.` : `${base}; it can be used after ${availableAt}.`;
}
