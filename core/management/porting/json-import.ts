import { readDate } from './import-dates.js';
import { attempt, type ImportFile, type ImportFormat, type ImportRow, unknownFormat } from './import-row.js';
import { arrayEntries, MAX_ENTRY_CHARS, notJson, objectMembers, parseSpan, skipWhitespace } from './json-entries.js';
import type { Turns } from './take-turns.js';

type Item = Record<string, unknown>;

interface JsonFormat {
  format: ImportFormat;
  /** Fields every link of this format has, which the others do not. */
  fields: readonly [code: string, url: string];
  /** Whether a container with no links yet is this format's (`{"version":1,"links":[]}`). */
  emptyContainer(container: Item): boolean;
  read(item: Item, row: ImportRow): void;
}

// The export does not carry a password Linklet can check (at most a hash of another scheme):
// imported, the link would open for anyone.
const PASSWORD_SKIP =
  'It is password-protected there, and the export carries no password Linklet can check: importing it would make it public. Shorten it here and set a password.';

const JSON_FORMATS: readonly JsonFormat[] = [
  {
    format: 'linklet-json',
    fields: ['code', 'original_url'],
    emptyContainer: (container) => container.version === 1,
    read(item, row) {
      row.createdAt = attempt(row, () => readDate(item.created_at, 'created_at'));
      row.expiresAt = attempt(row, () => readDate(item.expiration_date, 'expiration_date'));
      if (item.status === 'disabled') row.disabled = true;
      if (item.password_protected === true) row.hadPassword = true;
      row.title = item.title;
      row.tags = item.tags;
      const { redirect_rules, max_visits, valid_since, forward_query } = item;
      if (
        redirect_rules !== undefined ||
        max_visits !== undefined ||
        valid_since !== undefined ||
        forward_query !== undefined
      )
        row.ruleFields = { redirect_rules, max_visits, valid_since, forward_query };
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
      row.title = item.title ?? item.comment; // Sink has a comment, and a title in newer exports
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
      row.title = item.description;
      if (item.banned === true) row.disabled = true;
      if (item.password === true) row.skip = PASSWORD_SKIP;
    },
  },
];

const isItem = (value: unknown): value is Item => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The format whose fields the first link has, or whose empty container this is. */
function recognise(first: Item | undefined, container: Item | undefined): JsonFormat {
  const format = first
    ? JSON_FORMATS.find(({ fields }) => fields.every((field) => field in first))
    : container && JSON_FORMATS.find((candidate) => candidate.emptyContainer(container));
  if (format === undefined) throw unknownFormat('The JSON links have none of the fields of the formats');
  return format;
}

/**
 * Reads a JSON export (Linklet's, a Sink export page, a Kutt listing, or a bare array of their
 * links) into import rows. The whole text is checked first, entry by entry and taking turns with
 * other requests, so a file that is not JSON is a 400 before any row is imported; the rows then
 * come one entry at a time, each parsed alone, so the file is never held as parsed values. An
 * entry that is not an object, is over `MAX_ENTRY_CHARS`, or whose code or URL is not text, is an
 * invalid row; the others are read.
 */
export async function readJsonImport(text: string, turns: Turns): Promise<ImportFile> {
  const { open, container } = locateLinks(text);
  let first: Item | undefined;
  let arrayEnd = open;
  for (const span of arrayEntries(text, open, (end) => (arrayEnd = end))) {
    if (turns.due()) await turns.pause();
    if (span.end - span.start > MAX_ENTRY_CHARS) continue; // an invalid row, never parsed
    const value = parseSpan(text, span);
    if (first === undefined && isItem(value)) first = value;
  }
  if (container === undefined && skipWhitespace(text, arrayEnd) < text.length) {
    throw notJson(`text follows the array at position ${skipWhitespace(text, arrayEnd)}`);
  }
  const format = recognise(first, container);
  return { format: format.format, rows: jsonRows(text, open, format) };
}

/** The `[` of the links (the document itself, or its `links` or `data` array) and the object around it. */
function locateLinks(text: string): { open: number; container: Item | undefined } {
  const start = skipWhitespace(text, 0);
  if (text.charCodeAt(start) === 0x5b) return { open: start, container: undefined };
  const { members, end } = objectMembers(text, start);
  if (skipWhitespace(text, end) < text.length) throw notJson(`text follows the object at position ${end}`);
  const container: Item = {};
  const arrays = new Map<string, number>();
  for (const { key, value } of members) {
    arrays.delete(key); // as JSON.parse does, the last of a repeated field counts
    if ((key === 'links' || key === 'data') && text.charCodeAt(value.start) === 0x5b) {
      arrays.set(key, value.start);
      container[key] = [];
    } else if (value.end - value.start > MAX_ENTRY_CHARS) {
      throw notJson(`its field ${JSON.stringify(key.slice(0, 40))} is larger than any export writes`);
    } else {
      container[key] = parseSpan(text, value);
    }
  }
  const open = arrays.get('links') ?? arrays.get('data');
  if (open === undefined) throw unknownFormat('The JSON is none of the formats');
  return { open, container };
}

function* jsonRows(text: string, open: number, format: JsonFormat): Generator<ImportRow> {
  const [codeField, urlField] = format.fields;
  let at = 0;
  for (const span of arrayEntries(text, open)) {
    const row: ImportRow = { row: ++at, code: '', url: '' };
    const size = span.end - span.start;
    const item = size > MAX_ENTRY_CHARS ? undefined : parseSpan(text, span);
    if (!isItem(item)) {
      row.problem =
        size > MAX_ENTRY_CHARS
          ? `This entry is ${size} characters long; a link's entry is at most ${MAX_ENTRY_CHARS}.`
          : 'This entry is not a JSON object.';
      yield row;
      continue;
    }
    const code = item[codeField];
    const url = item[urlField];
    if (typeof code === 'string') row.code = code;
    else if (code !== undefined && code !== null) row.problem = `${codeField} must be a string.`;
    if (typeof url === 'string') row.url = url;
    else if (url !== undefined && url !== null) row.problem ??= `${urlField} must be a string.`;
    format.read(item, row);
    yield row;
  }
}
