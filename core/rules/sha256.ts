/**
 * SHA-256 and HMAC-SHA-256 for the core, done synchronously where the runtime has `node:crypto`.
 * Why not WebCrypto everywhere: on Node each `crypto.subtle` call is a job on the libuv thread
 * pool, and a create that answered a claim token spent 35 µs more CPU for one `digest` (82 against
 * 47 µs a create, `npm run bench`), where `createHash` takes about 1 µs. The extension's service
 * worker has only WebCrypto, which it keeps using.
 */

/** The part of `node:crypto` used here (the core does not depend on Node's types). */
interface SyncCrypto {
  createHash(algorithm: 'sha256'): { update(data: Uint8Array): { digest(encoding: 'hex'): string } };
  createHmac(algorithm: 'sha256', key: Uint8Array): { update(data: Uint8Array): { digest(): Uint8Array } };
}

const encoder = new TextEncoder();
let syncCrypto: SyncCrypto | null | undefined;

/** `node:crypto` when this runtime is Node (`process.getBuiltinModule`, Node 22.3+), else null. */
function nodeCrypto(): SyncCrypto | null {
  if (syncCrypto === undefined) {
    const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    syncCrypto = (runtime?.getBuiltinModule?.('node:crypto') as SyncCrypto | undefined) ?? null;
  }
  return syncCrypto;
}

const toHex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/** SHA-256 of a text's UTF-8, in lower-case hex: how API keys and claim tokens are kept. */
export async function sha256Hex(text: string): Promise<string> {
  const data = encoder.encode(text);
  const sync = nodeCrypto();
  if (sync !== null) return sync.createHash('sha256').update(data).digest('hex');
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', data)));
}

/** HMAC-SHA-256 of `data` under `key`: 32 bytes. */
export async function hmacSha256(key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const sync = nodeCrypto();
  if (sync !== null) return new Uint8Array(sync.createHmac('sha256', key).update(data).digest());
  const imported = await crypto.subtle.importKey('raw', key as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return new Uint8Array(await crypto.subtle.sign('HMAC', imported, data as BufferSource));
}

/**
 * Whether two byte strings are equal, looking at every byte whatever the first difference, so the
 * time a forged signature takes says nothing of how close it came.
 */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) difference |= (a[i] ?? 0) ^ (b[i] as number);
  return difference === 0;
}
