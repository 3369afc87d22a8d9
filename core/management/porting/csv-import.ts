import Papa from 'papaparse';
import { restoreCsvCell } from './csv-cell.js';
import { isBlank, readDate } from './import-dates.js';
import { tagsOfCell } from './import-labels.js';
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
    read(exported, row) {
      // The export put a `'` before cells a spreadsheet would take for formulas (`-2-3`).
      const cells: Cells = (column) => {
        const cell = exported(column);
        return cell === undefined ? undefined : restoreCsvCell(cell);
      };
      row.code = cells('code') ?? '';
      row.url = cells('original_url') ?? '';
      row.createdAt = attempt(row, () => readDate(cells('created_at'), 'created_at'));
      row.expiresAt = attempt(row, () => readDate(cells('expiration_date'), 'expiration_date'));
      if (cells('status')?.trim() === 'disabled') row.disabled = true;
      row.title = cells('title');
      row.tags = tagsOfCell(cells('tags'));
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
      row.title = cells('title');
      row.tags = tagsOfCell(cells('tags'));
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
      row.title = cells('title');
      row.tags = tagsOfCell(cells('tags'));
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
      row.title = cells('title');
    },
  },
];

const YOURLS_COLUMNS = ['keyword', 'url', 'title', 'timestamp', 'ip', 'clicks'];
const DELIMITERS = [',', ';', '\t'] as const;

// No header row of any format is this long; looking further would parse a huge first field whole.
const HEADER_CHARS = 64 * 1024;

/** The first record, split with `delimiter`. */
const firstRecord = (text: string, delimiter: string) =>
  (Papa.parse<string[]>(text.slice(0, HEADER_CHARS), { delimiter, preview: 1 }).data[0] ?? []).map((cell) =>
    cell.trim().toLowerCase(),
  );

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

// The parser reads the text this many characters at a time and hands over at most this many
// rows before it pauses, so parsing a 10 MiB file never holds more than a slice of it as rows.
// Each chunk is copied once it is parsed; at 64K characters the copy stays a young object (V8
// puts strings over 128 KiB in large-object space, freed only by a full collection): 100,000
// rows' peak large-object space went from 22–31 MB with 256K chunks to 15–19 MB.
const CHUNK_CHARS = 64 * 1024;
const ROWS_AHEAD = 1000;

/**
 * Reads a CSV export (RFC 4180: quoted fields, embedded newlines, `;` or tab delimiters) into
 * import rows. The format is recognised at once (a 400 before anything is imported); the rows
 * come lazily, a thousand at a time, as the import takes them, so a large file is never held
 * as parsed rows all at once. A malformed record (an unterminated quote) is an invalid row.
 */
export function readCsvImport(text: string): ImportFile {
  const { format, delimiter, header } = recognise(text);
  return { format: format.format, rows: csvRows(text, delimiter, format, header) };
}

function* csvRows(text: string, delimiter: string, format: CsvFormat, header: string[] | undefined) {
  const columns = header ?? YOURLS_COLUMNS;
  const index = new Map(columns.map((column, at) => [column, at] as const).reverse());
  const queue: ImportRow[] = [];
  let count = 0;
  let skipHeader = header !== undefined;
  let parser: Papa.Parser | undefined;
  let done = false;
  // Papa parses a string synchronously until it is paused or done; resume() goes on the same way.
  Papa.parse<string[]>(text, {
    delimiter,
    chunkSize: CHUNK_CHARS,
    skipEmptyLines: 'greedy',
    step(result, current) {
      if (skipHeader) {
        skipHeader = false;
        return;
      }
      const cells = result.data;
      const row: ImportRow = { row: ++count, code: '', url: '' };
      format.read((column) => {
        const at = index.get(column);
        const cell = at === undefined ? undefined : cells[at];
        return isBlank(cell) ? undefined : cell;
      }, row);
      const error = result.errors[0];
      if (error) row.problem = `The CSV is malformed here: ${error.message}.`;
      queue.push(row);
      if (queue.length >= ROWS_AHEAD) {
        parser = current;
        current.pause();
      }
    },
    complete() {
      done = true;
    },
  });
  for (;;) {
    yield* queue.splice(0);
    if (done || parser === undefined) return;
    parser.resume();
  }
}
