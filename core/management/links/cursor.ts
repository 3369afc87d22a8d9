import { invalid } from '../../http/errors.js';
import { fromBase64Url, toBase64Url } from '../../rules/base64url.js';
import { hmacSha256, sameBytes } from '../../rules/sha256.js';

/** Where a listing stopped: the last item's time and code key, and which listing it was. */
export interface CursorPosition {
  /** `list` (newest first, by creation), `changes` (oldest first, by change) or a link's `visits` (the id as `codeKey`). */
  kind: 'list' | 'changes' | 'visits';
  at: number;
  codeKey: string;
}

const encoder = new TextEncoder();
const badCursor = () =>
  invalid('cursor is not one this server gave out (or was changed); use next_cursor as it came, or leave it out.');

/**
 * The opaque `next_cursor`: the position as base64url JSON and its HMAC-SHA-256 under the
 * store's secret (shared by every instance), so a cursor made up or altered by a client is a
 * 400, not a query on someone's guess.
 */
export async function signCursor(secret: string, position: CursorPosition): Promise<string> {
  const payload = encoder.encode(JSON.stringify([position.kind, position.at, position.codeKey]));
  const signature = await hmacSha256(encoder.encode(secret), payload);
  return `${toBase64Url(payload)}.${toBase64Url(signature)}`;
}

/** The position a cursor names, if this server signed it for this kind of listing; else a 400. */
export async function readCursor(
  secret: string,
  cursor: string,
  kind: CursorPosition['kind'],
): Promise<CursorPosition> {
  const match = /^([\w-]{1,400})\.([\w-]{43})$/.exec(cursor);
  if (match === null) throw badCursor();
  const payload = fromBase64Url(match[1] as string);
  const signature = fromBase64Url(match[2] as string);
  if (payload === undefined || signature === undefined) throw badCursor();
  if (!sameBytes(await hmacSha256(encoder.encode(secret), payload), signature)) throw badCursor();
  const [signedKind, at, codeKey] = JSON.parse(new TextDecoder().decode(payload)) as [string, number, string];
  if (signedKind !== kind) {
    throw invalid('cursor belongs to another kind of listing (with or without changed_since); start without it.');
  }
  return { kind, at, codeKey };
}
