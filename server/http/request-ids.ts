import { randomUUID } from 'node:crypto';

/**
 * Fresh request ids shaped like UUIDs: this process's random prefix (74 random bits, as a version 4
 * UUID's first four groups) and a 48-bit counter as the last group. Unique across processes and
 * restarts as a UUID is, while making one costs a counter step and a short hex string rather than
 * 16 random bytes formatted (a redirect makes one per request, and it showed in its profile).
 */
export function createRequestIds(): () => string {
  const prefix = randomUUID().slice(0, 24); // xxxxxxxx-xxxx-4xxx-yxxx-
  let counter = Number.parseInt(randomUUID().slice(24, 36), 16); // a random start: ids do not reveal the count
  return () => {
    counter = counter >= 0xffff_ffff_ffff ? 0 : counter + 1;
    return prefix + counter.toString(16).padStart(12, '0');
  };
}
