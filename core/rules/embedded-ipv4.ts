/** The 32-bit value of two 16-bit groups, high first. */
const ipv4Of = (high: number, low: number): number => (high * 0x10000 + low) >>> 0;

const allZero = (groups: readonly number[], from: number, to: number) =>
  groups.slice(from, to).every((group) => group === 0);

/**
 * The IPv4 address of an RFC 6052 IPv4-embedded IPv6 address under a prefix of `prefixBits`
 * (48, 56, 64 or 96): the 32 bits follow the prefix, skipping bits 64–71 (the `u` octet).
 */
function rfc6052Ipv4(groups: readonly number[], prefixBits: 48 | 56 | 64 | 96): number {
  const bytes = groups.flatMap((group) => [group >> 8, group & 0xff]);
  const start = prefixBits / 8;
  const picked = prefixBits === 96 ? bytes.slice(12, 16) : bytes.filter((_, at) => at !== 8).slice(start, start + 4);
  return picked.reduce((value, byte) => value * 256 + byte, 0);
}

/**
 * Every IPv4 address an IPv6 address (eight 16-bit groups) carries, where packets to it may end
 * up at that IPv4 address: `[::ffff:169.254.169.254]` or `[64:ff9b::a9fe:a9fe]` reach the
 * metadata service as surely as `169.254.169.254` does, so the IPv4 rules must judge them too.
 *
 * - IPv4-mapped `::ffff:a.b.c.d` and IPv4-compatible `::a.b.c.d` (RFC 4291);
 * - SIIT `::ffff:0:a.b.c.d` (RFC 2765);
 * - NAT64 well-known `64:ff9b::/96` (RFC 6052) and local-use `64:ff9b:1::/48` (RFC 8215), whose
 *   operator may choose a /48, /56, /64 or /96 prefix in it: every one of those readings counts;
 * - 6to4 `2002:a.b.c.d::/48` (RFC 3056);
 * - Teredo `2001:0::/32` (RFC 4380): the client's address, stored inverted in the last 32 bits.
 */
export function embeddedIpv4s(groups: readonly number[]): number[] {
  const [first = 0, second = 0, third = 0] = groups;
  const last = ipv4Of(groups[6] ?? 0, groups[7] ?? 0);
  if (allZero(groups, 0, 5) && (groups[5] === 0xffff || groups[5] === 0)) return [last]; // mapped, compatible
  if (allZero(groups, 0, 4) && groups[4] === 0xffff && groups[5] === 0) return [last]; // SIIT
  if (first === 0x64 && second === 0xff9b) {
    if (allZero(groups, 2, 6)) return [last]; // NAT64 well-known prefix
    if (third === 1) return ([48, 56, 64, 96] as const).map((bits) => rfc6052Ipv4(groups, bits));
  }
  if (first === 0x2002) return [ipv4Of(second, third)]; // 6to4
  if (first === 0x2001 && second === 0) return [(~last >>> 0) >>> 0]; // Teredo client, inverted
  return [];
}
