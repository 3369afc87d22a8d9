import { invalid } from '../../http/errors.js';

/** Where a listing stopped: the last item's time and code key, and which listing it was. */
export interface CursorPosition {
  /** `list` (newest first, by creation), `changes` (oldest first, by change) or a link's `visits` (the id as `codeKey`). */
  kind: 'list' | 'changes' | 'visits';
  at: number;
  codeKey: string;
}

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();
const hmacKey = (secret: string) => {
  let key = keys.get(secret);
  if (key === undefined) {
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    keys.set(secret, key);
  }
  return key;
};

const toBase64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
const fromBase64Url = (text: string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(atob(text.replaceAll('-', '+').replaceAll('_', '/')), (char) => char.charCodeAt(0));

const badCursor = () =>
  invalid('cursor is not one this server gave out (or was changed); use next_cursor as it came, or leave it out.');

/**
 * The opaque `next_cursor`: the position as base64url JSON and its HMAC-SHA-256 under the
 * store's secret (shared by every instance), so a cursor made up or altered by a client is a
 * 400, not a query on someone's guess.
 */
export async function signCursor(secret: string, position: CursorPosition): Promise<string> {
  const payload = encoder.encode(JSON.stringify([position.kind, position.at, position.codeKey]));
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), payload));
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
  let payload: Uint8Array<ArrayBuffer>;
  let signature: Uint8Array<ArrayBuffer>;
  try {
    payload = fromBase64Url(match[1] as string);
    signature = fromBase64Url(match[2] as string);
  } catch {
    throw badCursor();
  }
  if (!(await crypto.subtle.verify('HMAC', await hmacKey(secret), signature, payload))) throw badCursor();
  const [signedKind, at, codeKey] = JSON.parse(new TextDecoder().decode(payload)) as [string, number, string];
  if (signedKind !== kind) {
    throw invalid('cursor belongs to another kind of listing (with or without changed_since); start without it.');
  }
  return { kind, at, codeKey };
}
