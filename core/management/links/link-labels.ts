import { invalid } from '../../http/errors.js';
import { characterCount } from '../../rules/character-count.js';

/** The longest title a link may carry (characters, after trimming). */
export const MAX_TITLE_LENGTH = 200;
/** The most tags one link may carry. */
export const MAX_TAGS = 10;
/** The longest tag (characters). */
export const MAX_TAG_LENGTH = 32;
/** Letters (Hangul among them), digits, `-` and `_`: a tag is one word, so lists can be split on spaces. */
const TAG = /^[\p{L}\p{Nd}_-]{1,32}$/u;

/**
 * A tag as it is stored and compared: NFC, lower case. Tags compare case-insensitively, so
 * keeping one spelling (as Shlink does) makes `News` and `news` one tag everywhere: in filters,
 * in `GET /api/v1/tags`, in every store's index, without a collation of its own.
 */
export function tagKey(tag: string): string {
  return tag.normalize('NFC').toLowerCase();
}

/**
 * A title's length as people count it: code points, as codes, passwords and tags are counted,
 * so an emoji (two UTF-16 units) is one character. The OpenAPI `maxLength` counts the same way.
 */
export function titleLength(title: string): number {
  return characterCount(title);
}

/**
 * A title as it is kept and counted: NFC, without surrounding spaces. Exported so a screen checks
 * the length of what the server will keep, not of what was typed.
 */
export function normalizeTitle(title: string): string {
  return title.normalize('NFC').trim();
}

/** A title from a request: a string of at most 200 characters; `null` or blank clears it. */
export function parseTitle(value: unknown): string | null {
  if (value === null) return null;
  if (typeof value !== 'string') throw invalid('title must be a string (or null to remove it).');
  const title = normalizeTitle(value);
  const length = titleLength(title);
  if (length > MAX_TITLE_LENGTH) {
    throw invalid(`title must be at most ${MAX_TITLE_LENGTH} characters; this one has ${length}.`);
  }
  return title === '' ? null : title;
}

/**
 * Tags from a request: a list of at most 10 tags, each 1–32 letters, digits, `-` or `_`; `null`
 * is the empty list. Duplicates (ignoring case) count once, in the order first given.
 */
export function parseTags(value: unknown): string[] {
  if (value === null) return [];
  if (!Array.isArray(value)) throw invalid('tags must be a list of words, such as ["work","2026"].');
  const tags: string[] = [];
  for (const item of value) {
    if (typeof item !== 'string') throw invalid('Each tag must be a string, such as "work".');
    const tag = tagKey(item.trim());
    if (!TAG.test(tag)) {
      throw invalid(
        `The tag ${JSON.stringify(item.slice(0, 40))} is not allowed: each tag is 1 to ${MAX_TAG_LENGTH} letters, digits, - or _ (no spaces).`,
      );
    }
    if (!tags.includes(tag)) tags.push(tag);
  }
  if (tags.length > MAX_TAGS)
    throw invalid(`A link can have at most ${MAX_TAGS} tags; this request has ${tags.length}.`);
  return tags;
}

/** The `tag` filter of a listing: one tag by the same rule, as its stored key. */
export function parseTagFilter(value: string): string {
  const tag = tagKey(value.trim());
  if (!TAG.test(tag)) {
    throw invalid(`tag must be one tag: 1 to ${MAX_TAG_LENGTH} letters, digits, - or _, such as tag=work.`);
  }
  return tag;
}

/** Tags as one column's text (space-separated: a tag has no spaces); none is `null`. */
export function tagsToText(tags: readonly string[] | undefined): string | null {
  return tags === undefined || tags.length === 0 ? null : tags.join(' ');
}

/** The column's text back as tags (none for `null` or an older row without the column). */
export function tagsFromText(text: string | null | undefined): string[] {
  return text ? text.split(' ') : [];
}

/** Whether a link's tags include this tag key. */
export function hasTag(tags: readonly string[] | undefined, key: string): boolean {
  return tags?.includes(key) ?? false;
}
