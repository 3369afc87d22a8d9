import Papa from 'papaparse';
import { isBlank, readDate } from './import-dates.js';
import { attempt, type ImportFile, type ImportFormat, type ImportRow, unknownFormat } from './import-row.js';

/** A row's cell by (lower-cased) column name. */
type Cells = (column: string) => string | undefined;

interface CsvFormat {
  format: ImportFormat;
  /** Lower-cased header names that tell this format from the others. */
  columns: readonly string[];
  read(cells: Cells, row: ImportRow): void;
}

/** Percent-decoded text, or the text as it is when it is no valid percent-encoding. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The code in a short URL's path (`https://dub.sh/promo` → `promo`), percent-decoded. */
function codeOfShortUrl(shortUrl: string): string {
  try {
    return decoded(new URL(shortUrl.includes('://') ? shortUrl : `https://${shortUrl}`).pathname.slice(1));
  } catch {
    return '';
  }
}

const CSV_FORMATS: readonly CsvFormat[] = [
  {
    format: 'linklet-csv',
    columns: ['code', 'original_url'],
    read(cells, row) {
      row.code = cells('code') ?? '';
      row.url = cells('original_url') ?? '';
      row.createdAt = attempt(row, () => readDate(cells('created_at'), 'created_at'));
      row.expiresAt = attempt(row, () => readDate(cells('expiration_date'), 'expiration_date'));
      if (cells('status')?.trim() === 'disabled') row.disabled = true;
    },
  },
  {
    // shlink-web-client's "Export": createdAt,domain,shortCode,shortUrl,longUrl,title,tags,visits.
    // Its shortCode is the short URL's path as the browser gives it: percent-encoded.
    format: 'shlink-csv',
    columns: ['shortcode', 'longurl'],
    read(cells, row) {
      row.code = decoded(cells('shortcode') ?? '');
      row.url = cells('longurl') ?? '';
      row.createdAt = attempt(row, () => readDate(cells('createdat'), 'createdAt'));
    },
  },
  {
    // Dub's links export, by column label: Short link,Destination URL,Clicks,Created at,…
    format: 'dub-csv',
    columns: ['short link', 'destination url'],
    read(cells, row) {
      row.code = codeOfShortUrl(cells('short link')?.trim() ?? '');
      row.url = cells('destination url') ?? '';
      row.createdAt = attempt(row, () => readDate(cells('created at'), 'Created at'));
    },
  },
  {
    // The yourls_url table: keyword,url,title,timestamp,ip,clicks; timestamp in SQL form.
    format: 'yourls-csv',
    columns: ['keyword', 'url'],
    read(cells, row) {
      row.code = cells('keyword') ?? '';
      row.url = cells('url') ?? '';
      row.createdAt = attempt(row, () => readDate(cells('timestamp'), 'timestamp'));
    },
  },
];

const YOURLS_COLUMNS = ['keyword', 'url', 'title', 'timestamp', 'ip', 'clicks'];
const DELIMITERS = [',', ';', '\t'] as const;

/** The first record, split with `delimiter`. */
const firstRecord = (text: string, delimiter: string) =>
  (Papa.parse<string[]>(text, { delimiter, preview: 1 }).data[0] ?? []).map((cell) => cell.trim().toLowerCase());

/**
 * Which format a CSV is in, its delimiter, and its column names: from the header row, tried with
 * each delimiter spreadsheets use. A YOURLS dump may come without a header (a plain table
 * export): six columns whose second is a URL and fourth a SQL timestamp.
 */
function recognise(text: string): { format: CsvFormat; delimiter: string; header: string[] | undefined } {
  for (const delimiter of DELIMITERS) {
    const header = firstRecord(text, delimiter);
    const format = CSV_FORMATS.find(({ columns }) => columns.every((column) => header.includes(column)));
    if (format) return { format, delimiter, header };
  }
  for (const delimiter of DELIMITERS) {
    const [, url = '', , timestamp = '', ...rest] = firstRecord(text, delimiter);
    if (rest.length === 2 && /^https?:\/\//.test(url) && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(timestamp)) {
      return {
        format: CSV_FORMATS.find(({ format }) => format === 'yourls-csv') as CsvFormat,
        delimiter,
        header: undefined,
      };
    }
  }
  throw unknownFormat('The CSV header row names none of the formats');
}

/**
 * Reads a CSV export (RFC 4180: quoted fields, embedded newlines, `;` or tab delimiters) into
 * import rows, one record at a time, so a large file is not held twice over as parsed arrays.
 * A malformed record (an unterminated quote) becomes an invalid row; the others are read.
 */
export function readCsvImport(text: string): ImportFile {
  const { format, delimiter, header } = recognise(text);
  const columns = header ?? YOURLS_COLUMNS;
  const index = new Map(columns.map((column, at) => [column, at] as const).reverse());
  const rows: ImportRow[] = [];
  let skipHeader = header !== undefined;
  Papa.parse<string[]>(text, {
    delimiter,
    skipEmptyLines: 'greedy',
    step(result) {
      if (skipHeader) {
        skipHeader = false;
        return;
      }
      const cells = result.data;
      const row: ImportRow = { row: rows.length + 1, code: '', url: '' };
      const cellOf: Cells = (column) => {
        const at = index.get(column);
        const cell = at === undefined ? undefined : cells[at];
        return isBlank(cell) ? undefined : cell;
      };
      format.read(cellOf, row);
      const error = result.errors[0];
      if (error) row.problem = `The CSV is malformed here: ${error.message}.`;
      rows.push(row);
    },
  });
  return { format: format.format, rows };
}
