import { readDate } from './import-dates.js';
import { attempt, type ImportFile, type ImportFormat, type ImportRow, unknownFormat } from './import-row.js';

type Item = Record<string, unknown>;

interface JsonFormat {
  format: ImportFormat;
  /** Fields every link of this format has, which the others do not. */
  fields: readonly [code: string, url: string];
  /** Whether a container with no links yet is this format's (`{"version":1,"links":[]}`). */
  emptyContainer(container: Item): boolean;
  read(item: Item, row: ImportRow): void;
}

const PASSWORD_SKIP =
  'It is password-protected there, and Linklet has no passwords: importing it would make it public.';

const JSON_FORMATS: readonly JsonFormat[] = [
  {
    format: 'linklet-json',
    fields: ['code', 'original_url'],
    emptyContainer: (container) => container.version === 1,
    read(item, row) {
      row.createdAt = attempt(row, () => readDate(item.created_at, 'created_at'));
      row.expiresAt = attempt(row, () => readDate(item.expiration_date, 'expiration_date'));
      if (item.status === 'disabled') row.disabled = true;
    },
  },
  {
    // Sink's `GET /api/link/export` page: {version:"1.0", exportedAt, links:[…], cursor, list_complete}.
    format: 'sink-json',
    fields: ['slug', 'url'],
    emptyContainer: (container) => typeof container.version === 'string' && 'exportedAt' in container,
    read(item, row) {
      row.createdAt = attempt(row, () => readDate(item.createdAt, 'createdAt'));
      row.expiresAt = attempt(row, () => readDate(item.expiration, 'expiration'));
      if (typeof item.password === 'string' && item.password !== '') row.skip = PASSWORD_SKIP;
    },
  },
  {
    // Kutt's `GET /api/v2/links`: {total, limit, skip, data:[…]}.
    format: 'kutt-json',
    fields: ['address', 'target'],
    emptyContainer: (container) => 'total' in container && 'skip' in container,
    read(item, row) {
      row.createdAt = attempt(row, () => readDate(item.created_at, 'created_at'));
      row.expiresAt = attempt(row, () => readDate(item.expire_in, 'expire_in'));
      if (item.banned === true) row.disabled = true;
      if (item.password === true) row.skip = PASSWORD_SKIP;
    },
  },
];

const isItem = (value: unknown): value is Item => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The list of links in a parsed export, and the object around it (if any). */
function linksOf(document: unknown): { items: unknown[]; container: Item | undefined } {
  if (Array.isArray(document)) return { items: document, container: undefined };
  if (isItem(document)) {
    const items = Array.isArray(document.links)
      ? document.links
      : Array.isArray(document.data)
        ? document.data
        : undefined;
    if (items) return { items, container: document };
  }
  throw unknownFormat('The JSON is none of the formats');
}

/** The format whose fields the links have (the first object decides), or whose empty container this is. */
function recognise(items: unknown[], container: Item | undefined): JsonFormat {
  const first = items.find(isItem);
  const format = first
    ? JSON_FORMATS.find(({ fields }) => fields.every((field) => field in first))
    : container && JSON_FORMATS.find((candidate) => candidate.emptyContainer(container));
  if (format === undefined) throw unknownFormat('The JSON links have none of the fields of the formats');
  return format;
}

/**
 * Reads a JSON export (Linklet's, a Sink export page, a Kutt listing, or a bare array of their
 * links) into import rows. An entry that is not an object, or whose code or URL is not text, is
 * an invalid row; the others are read.
 */
export function readJsonImport(document: unknown): ImportFile {
  const { items, container } = linksOf(document);
  const format = recognise(items, container);
  const [codeField, urlField] = format.fields;
  const rows = items.map((item, at): ImportRow => {
    const row: ImportRow = { row: at + 1, code: '', url: '' };
    if (!isItem(item)) {
      row.problem = 'This entry is not a JSON object.';
      return row;
    }
    const code = item[codeField];
    const url = item[urlField];
    if (typeof code === 'string') row.code = code;
    else if (code !== undefined && code !== null) row.problem = `${codeField} must be a string.`;
    if (typeof url === 'string') row.url = url;
    else if (url !== undefined && url !== null) row.problem ??= `${urlField} must be a string.`;
    format.read(item, row);
    return row;
  });
  return { format: format.format, rows };
}
