import * as z from 'zod/mini';
import { isValidCode } from '../../core/rules/code.js';
import { EXPIRE_DURATIONS } from '../../core/rules/expiry.js';
import { isRealDate } from '../../ui/real-date.js';
import { isUnder, isWebUrl } from '../openable-url.js';
import { serverTargetProblem } from '../server/server-target.js';
import type { HistoryEntry } from './history-entry.js';

const FORMAT = 'linklet-history';

/** The core's own rule for `original_url`: a file cannot bring in what no backend would store. */
const originalUrl = z
  .string()
  .check(
    z.refine(
      (value) => serverTargetProblem(value) === undefined,
      'must be an http(s) URL that Linklet accepts (no credentials, spaces or control characters)',
    ),
  );
/** A file can come from anywhere: only web URLs may be servers, reached by `fetch`. */
const serverUrl = z
  .string()
  .check(
    z.refine((value) => isWebUrl(value) && !/[?#]/.test(value) && !value.endsWith('/'), 'must be an http(s) base URL'),
  );
const date = z.number().check(z.refine(isRealDate, 'must be a date (milliseconds a Date can hold)'));
const count = z.number().check(z.refine((value) => Number.isSafeInteger(value) && value >= 0, 'must be a count'));

/** A local link's short URL in the browser that exported it (another extension id). */
const LOCAL_SHORT_URL = /^(chrome|moz)-extension:\/\/[^/?#]+\/open\.html#\//;

/** Where a code may be empty: a link waiting for (or refused by) the server to pick one. */
const WITHOUT_CODE = new Set(['pending', 'conflict', 'failed']);

const entrySchema = z
  .object({
    id: z.string().check(z.minLength(1), z.maxLength(200)),
    code: z.string(),
    customCode: z.boolean(),
    originalUrl,
    shortUrl: z.string(),
    server: z.nullable(serverUrl),
    status: z.enum(['local', 'synced', 'pending', 'conflict', 'failed']),
    expire: z.enum(EXPIRE_DURATIONS),
    createdAt: date,
    expiresAt: date,
    attempts: count,
    nextAttemptAt: z.optional(date),
    message: z.optional(z.string().check(z.maxLength(2000))),
  })
  .check(
    z.refine((entry) => (entry.code === '' ? WITHOUT_CODE.has(entry.status) : isValidCode(entry.code)), {
      message: 'must be a code Linklet accepts (Hangul, ASCII letters, digits, _ and -; 1 to 64; not reserved)',
      path: ['code'],
    }),
    z.refine((entry) => (entry.status === 'local') === (entry.server === null), {
      message: 'must be null for a local link and a server URL for any other',
      path: ['server'],
    }),
    // A local link's short URL is rebuilt for this browser on import; any other must be the
    // server's own, so the file cannot make Copy or Open carry a `data:` or `file:` URL.
    z.refine(
      (entry) =>
        entry.server === null
          ? LOCAL_SHORT_URL.test(entry.shortUrl)
          : entry.shortUrl === ''
            ? entry.status !== 'synced'
            : isUnder(entry.shortUrl, entry.server),
      { message: "must be a short URL on the link's server", path: ['shortUrl'] },
    ),
  );

const fileSchema = z.object({ format: z.literal(FORMAT), version: z.literal(1), links: z.array(entrySchema) });

/** The export file: versioned so a later format can still read this one. */
export function toHistoryFile(entries: HistoryEntry[], exportedAt: number): string {
  return JSON.stringify(
    { format: FORMAT, version: 1, exportedAt: new Date(exportedAt).toISOString(), links: entries },
    null,
    2,
  );
}

/** Whether the text is meant as a history file (another export is read by `readImportFile`). */
export function isHistoryFile(text: string): boolean {
  if (!/^\s*\{/.test(text)) return false;
  try {
    const json: unknown = JSON.parse(text);
    return (json as { format?: unknown } | null)?.format === FORMAT;
  } catch {
    return false;
  }
}

/**
 * Reads an export file; throws with the first problem's path when it is not one. Every link must
 * pass the core's own code and URL rules and carry real dates, whatever wrote the file.
 */
export function parseHistoryFile(text: string): HistoryEntry[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('This file is not JSON; choose a file exported by Linklet.');
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`This is not a Linklet history file (${issue?.path.join('.') || 'format'}: ${issue?.message}).`);
  }
  return parsed.data.links;
}
