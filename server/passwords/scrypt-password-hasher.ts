import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import type { PasswordHasher } from '../../core/passwords/password-hasher.js';
import { createPbkdf2PasswordHasher } from '../../core/passwords/pbkdf2-password-hasher.js';

/**
 * scrypt's cost as OWASP lists it for interactive logins (N=2^14, r=8, p=1: 16 MiB of memory per
 * check). bench/ measures one check; the 5-tries-a-minute limit keeps it from being a CPU lever.
 */
export const SCRYPT_COST = { N: 16_384, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
// A stored hash can ask for at most this much (a tampered row is not a memory or CPU lever).
const MAX_N = 1 << 20;
const MAX_RP = 64;
const FORM = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([\w-]+)\$([\w-]+)$/;

const derive = (password: string, salt: Buffer, keyBytes: number, cost: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => {
    // 128·N·r bytes are needed; Node's default ceiling (32 MiB) is raised to fit the largest allowed.
    const maxmem = 256 * (cost.N ?? 0) * (cost.r ?? 0) + 1024 * 1024;
    scrypt(password, salt, keyBytes, { ...cost, maxmem }, (error, key) => (error ? reject(error) : resolve(key)));
  });

/**
 * The server's link passwords: `scrypt$N$r$p$salt$hash` (base64url salt and hash) through
 * `node:crypto`, whose scrypt runs on libuv's thread pool, so a check never blocks the event
 * loop. It also verifies the extension's PBKDF2 form, so a hash of either kind keeps working.
 */
export function createScryptPasswordHasher(cost: { N: number; r: number; p: number } = SCRYPT_COST): PasswordHasher {
  const pbkdf2 = createPbkdf2PasswordHasher();
  return {
    async hash(password) {
      const salt = randomBytes(SALT_BYTES);
      const key = await derive(password, salt, KEY_BYTES, cost);
      return `scrypt$${cost.N}$${cost.r}$${cost.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
    },
    async verify(password, stored) {
      if (stored.startsWith('pbkdf2-')) return pbkdf2.verify(password, stored);
      const match = FORM.exec(stored);
      if (!match) return false;
      const [N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
      if (N < 2 || N > MAX_N || (N & (N - 1)) !== 0 || r < 1 || r > MAX_RP || p < 1 || p > MAX_RP) return false;
      const salt = Buffer.from(match[4] as string, 'base64url');
      const expected = Buffer.from(match[5] as string, 'base64url');
      if (expected.length < 16) return false;
      const key = await derive(password, salt, expected.length, { N, r, p });
      return timingSafeEqual(key, expected);
    },
  };
}
