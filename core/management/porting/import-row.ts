import { LinkletError } from '../../http/errors.js';

/**
 * One link as an import file gives it, read but not yet checked against the rules: the same
 * shape whichever shortener wrote the file, so one use case (`importLinks`) applies the rules.
 */
export interface ImportRow {
  /** Position among the file's links, from 1 (a CSV's header row is not counted). */
  row: number;
  /** The short code as the file spells it; `''` when the row has none. */
  code: string;
  /** The target URL as the file gives it; `''` when the row has none. */
  url: string;
  /** Epoch ms, when the file says when the link was made. */
  createdAt?: number;
  /** Epoch ms, when the file gives an expiry; absent means "never" there, the default here. */
  expiresAt?: number;
  /** The link was disabled (Linklet) or banned (Kutt) where it came from. */
  disabled?: boolean;
  /**
   * The link had a password there that the file does not carry (a Linklet JSON export's
   * `password_protected`): it is created open, and its result says so.
   */
  hadPassword?: boolean;
  /** The link's title or comment there (Linklet, Shlink, Dub, YOURLS, Sink's `comment`). */
  title?: unknown;
  /** Its tags there (Linklet, Shlink, Dub), as a list. */
  tags?: unknown;
  /**
   * Its rules and limits as a Linklet JSON export writes them (`redirect_rules`, `max_visits`,
   * `valid_since`, `forward_query`), checked as a v1 create checks them.
   */
  ruleFields?: Record<string, unknown>;
  /** Why the row is left out although it may be valid (a password Linklet cannot keep). */
  skip?: string;
  /** Why the row cannot be read at all (an unparseable date, a field of the wrong type). */
  problem?: string;
}

/** The formats an import recognises, as the answer names them. */
export const IMPORT_FORMATS = {
  'linklet-csv': 'Linklet CSV export (code,short_url,original_url,created_at,expiration_date,status,clicks)',
  'linklet-json': 'Linklet JSON export ({"version":1,"links":[{"code","original_url",…}]})',
  'shlink-csv': 'Shlink CSV export (createdAt,domain,shortCode,shortUrl,longUrl,title,tags,visits)',
  'dub-csv': 'Dub CSV export (Short link,Destination URL,Clicks,Created at,…)',
  'sink-json': 'Sink JSON export ({"links":[{"slug","url","createdAt","expiration",…}]})',
  'yourls-csv': 'YOURLS yourls_url table as CSV (keyword,url,title,timestamp,ip,clicks; header row optional)',
  'kutt-json': 'Kutt GET /api/v2/links JSON ({"data":[{"address","target","created_at","expire_in",…}]})',
} as const;

export type ImportFormat = keyof typeof IMPORT_FORMATS;

/** A file is read as one format, into rows. */
export interface ImportFile {
  format: ImportFormat;
  /** In file order; a CSV's come lazily, as they are parsed. */
  rows: Iterable<ImportRow>;
}

/** The 400 of a file that is none of the formats: it names every one that is accepted. */
export function unknownFormat(what: string): LinkletError {
  return new LinkletError(
    'invalid',
    `${what} Linklet imports: ${Object.values(IMPORT_FORMATS).join('; ')}. Send the file as it was exported, as text/csv or application/json.`,
  );
}

/**
 * Runs one reader of a row's field: a `LinkletError` it throws becomes the row's problem (the
 * first one wins), so a row with a bad date is reported with the column that is wrong.
 */
export function attempt<T>(row: ImportRow, read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof LinkletError)) throw error;
    row.problem ??= error.message;
    return undefined;
  }
}
