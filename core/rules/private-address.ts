import { embeddedIpv4s } from './embedded-ipv4.js';

// IPv4 ranges no public link should point into (RFC 1918 private, RFC 6598 shared, loopback,
// link-local with the cloud metadata service at 169.254.169.254, and "this network").
const PRIVATE_IPV4: ReadonlyArray<readonly [number, number]> = [
  [0x00_00_00_00, 8], // 0.0.0.0/8
  [0x0a_00_00_00, 8], // 10.0.0.0/8
  [0x64_40_00_00, 10], // 100.64.0.0/10
  [0x7f_00_00_00, 8], // 127.0.0.0/8
  [0xa9_fe_00_00, 16], // 169.254.0.0/16
  [0xac_10_00_00, 12], // 172.16.0.0/12
  [0xc0_a8_00_00, 16], // 192.168.0.0/16
];

/**
 * Whether a URL's host (as the URL parser leaves it: lower case, IPv4 in dotted decimal, IPv6
 * in brackets) names this machine or a private network: `localhost` and `*.localhost`, the
 * IPv4 ranges above, and IPv6 `::`, `::1`, unique-local `fc00::/7`, link-local `fe80::/10`,
 * site-local `fec0::/10`, and every IPv6 form that carries one of the IPv4 ranges above
 * (mapped, compatible, SIIT, NAT64, 6to4, Teredo: `embeddedIpv4s`). A name is judged as written,
 * not by what it resolves to.
 */
export function isPrivateHost(hostname: string): boolean {
  const name = hostname.replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const ipv4 = ipv4Value(name);
  if (ipv4 !== undefined) return isPrivateIpv4(ipv4);
  if (name.startsWith('[') && name.endsWith(']')) return isPrivateIpv6(name.slice(1, -1));
  return false;
}

function isPrivateIpv4(value: number): boolean {
  return PRIVATE_IPV4.some(([base, bits]) => value >>> (32 - bits) === base >>> (32 - bits));
}

/** The 32-bit value of a dotted-decimal IPv4 address, or undefined. */
function ipv4Value(name: string): number | undefined {
  const parts = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(name);
  if (!parts) return undefined;
  const octets = parts.slice(1).map(Number);
  if (octets.some((octet) => octet > 255)) return undefined;
  return octets.reduce((value, octet) => value * 256 + octet, 0);
}

function isPrivateIpv6(address: string): boolean {
  const groups = ipv6Groups(address);
  if (groups === undefined) return false;
  const [first = 0] = groups;
  if (groups.slice(0, 7).every((group) => group === 0) && (groups[7] ?? 0) <= 1) return true; // :: and ::1
  if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80 || (first & 0xffc0) === 0xfec0) return true; // link- and site-local
  // Packets to these reach the IPv4 address inside (through a translator or a tunnel): it decides.
  return embeddedIpv4s(groups).some(isPrivateIpv4);
}

/** The eight 16-bit groups of an IPv6 address as the URL parser writes it (hex, `::` once). */
function ipv6Groups(address: string): number[] | undefined {
  const [head = '', tail, extra] = address.split('::');
  if (extra !== undefined) return undefined;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const before = parse(head);
  const after = tail === undefined ? [] : parse(tail);
  const missing = 8 - before.length - after.length;
  if (missing < 0 || (tail === undefined && missing !== 0) || [...before, ...after].some(Number.isNaN)) {
    return undefined;
  }
  return [...before, ...new Array<number>(missing).fill(0), ...after];
}
