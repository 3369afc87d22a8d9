import Papa from 'papaparse';
import { restoreCsvCell } from './csv-cell.js';
import { type CsvDialect, recordAt, recordTooLong } from './csv-records.js';
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

/** The first record, split with `delimiter`, and the line break papaparse finds in the file's start. */
function firstRecord(text: string, delimiter: string): { cells: string[]; newline: CsvDialect['newline'] } {
  const { data, meta } = Papa.parse<string[]>(text.slice(0, HEADER_CHARS), { delimiter, preview: 1 });
  const newline = meta.linebreak === '\r\n' || meta.linebreak === '\r' ? meta.linebreak : '\n';
  return { cells: (data[0] ?? []).map((cell) => cell.trim().toLowerCase()), newline };
}

/**
 * Which format a CSV is in, how it is written, and its column names: from the header row, tried
 * with each delimiter spreadsheets use. A YOURLS dump may come without a header (a plain table
 * export): six columns whose second is a URL and fourth a SQL timestamp.
 */
function recognise(text: string): { format: CsvFormat; dialect: CsvDialect; header: string[] | undefined } {
  for (const delimiter of DELIMITERS) {
    const { cells: header, newline } = firstRecord(text, delimiter);
    const format = CSV_FORMATS.find(({ columns }) => columns.every((column) => header.includes(column)));
    if (format) return { format, dialect: { delimiter, newline }, header };
  }
  for (const delimiter of DELIMITERS) {
    const { cells, newline } = firstRecord(text, delimiter);
    const [, url = '', , timestamp = '', ...rest] = cells;
    if (rest.length === 2 && /^https?:\/\//.test(url) && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(timestamp)) {
      return {
        format: CSV_FORMATS.find(({ format }) => format === 'yourls-csv') as CsvFormat,
        dialect: { delimiter, newline },
        header: undefined,
      };
    }
  }
  throw unknownFormat('The CSV header row names none of the formats');
}

// Whole records are handed to the parser this many characters at a time (at least one record):
// a few hundred rows, never a record cut in two, so nothing is parsed twice and one parse takes
// a millisecond or two. At 64K characters each slice stays a young object (V8 puts strings over
// 128 KiB in large-object space, freed only by a full collection).
const CHUNK_CHARS = 64 * 1024;

/**
 * Reads a CSV export (RFC 4180: quoted fields, embedded newlines, `;` or tab delimiters) into
 * import rows. The format is recognised at once (a 400 before anything is imported); the rows
 * come lazily, a slice of records at a time, as the import takes them, so a large file is never
 * held as parsed rows all at once. Each record is found (`recordAt`) before the parser sees it:
 * a malformed record (an unterminated quote) is an invalid row, and a record over
 * `MAX_RECORD_CHARS` is an invalid row that ends the file, since where the next record would
 * start cannot be told (docs/import-limits.md).
 */
export function readCsvImport(text: string): ImportFile {
  const { format, dialect, header } = recognise(text);
  return { format: format.format, rows: csvRows(text, dialect, format, header) };
}

function* csvRows(text: string, dialect: CsvDialect, format: CsvFormat, header: string[] | undefined) {
  const columns = header ?? YOURLS_COLUMNS;
  const index = new Map(columns.map((column, at) => [column, at] as const).reverse());
  let count = 0;
  let at = 0;
  let line = 1;
  let skipHeader = header !== undefined;
  while (at < text.length) {
    const sliceStart = at;
    let tooLong = false;
    while (at < text.length && at - sliceStart < CHUNK_CHARS) {
      const record = recordAt(text, at, dialect);
      if (record === undefined) {
        tooLong = true;
        break;
      }
      at = record.end;
      line += 1 + record.innerLines;
    }
    const rows: ImportRow[] = [];
    if (at > sliceStart) {
      Papa.parse<string[]>(text.slice(sliceStart, at), {
        ...dialect,
        skipEmptyLines: 'greedy',
        step(result) {
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
          rows.push(row);
        },
      });
    }
    yield* rows;
    if (tooLong) {
      yield { row: ++count, code: '', url: '', problem: recordTooLong(line) };
      return;
    }
  }
}
