/** An address as its bytes (4 for IPv4, 16 for IPv6), and how many leading bits of it a pattern fixes. */
export interface AddressPattern {
  bytes: Uint8Array;
  bits: number;
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function ipv4Bytes(text: string): Uint8Array | undefined {
  const parts = IPV4.exec(text);
  if (!parts) return undefined;
  const bytes = parts.slice(1).map(Number);
  return bytes.every((byte) => byte <= 255) ? Uint8Array.from(bytes) : undefined;
}

function ipv6Bytes(text: string): Uint8Array | undefined {
  let rest = text;
  let tail: number[] = [];
  // An IPv4 tail (`::ffff:192.0.2.1`) is its last two groups.
  const dotted = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(rest);
  if (dotted) {
    const v4 = ipv4Bytes(dotted[1] as string);
    if (!v4) return undefined;
    tail = [((v4[0] as number) << 8) | (v4[1] as number), ((v4[2] as number) << 8) | (v4[3] as number)];
    rest = rest.slice(0, -(dotted[1] as string).length);
    if (rest.endsWith(':') && !rest.endsWith('::')) rest = rest.slice(0, -1);
  }
  const halves = rest.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (half: string) => (half === '' ? [] : half.split(':'));
  const head = groupsOf(halves[0] as string);
  const back = halves.length === 2 ? groupsOf(halves[1] as string) : [];
  if (![...head, ...back].every((group) => /^[0-9a-fA-F]{1,4}$/.test(group))) return undefined;
  const known = [...head, ...back].map((group) => Number.parseInt(group, 16));
  const missing = 8 - known.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [
    ...head.map((group) => Number.parseInt(group, 16)),
    ...new Array<number>(halves.length === 2 ? missing : 0).fill(0),
    ...back.map((group) => Number.parseInt(group, 16)),
    ...tail,
  ];
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    bytes[2 * i] = group >> 8;
    bytes[2 * i + 1] = group & 0xff;
  });
  return bytes;
}

const MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

/** An address's bytes; an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, as Node gives IPv4 peers on a dual-stack socket) is its IPv4. */
export function addressBytes(address: string): Uint8Array | undefined {
  const text = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const v4 = ipv4Bytes(text);
  if (v4) return v4;
  const v6 = text.includes(':') ? ipv6Bytes(text.replace(/%.*$/, '')) : undefined;
  if (v6 && MAPPED_PREFIX.every((byte, i) => v6[i] === byte)) return v6.slice(12);
  return v6;
}

/**
 * An `ip-address` condition's value: one address (`192.0.2.7`, `2001:db8::1`) or a CIDR block
 * (`192.0.2.0/24`, `2001:db8::/32`); undefined when it is neither.
 */
export function parseAddressPattern(value: string): AddressPattern | undefined {
  const [address, prefix, extra] = value.trim().split('/');
  if (address === undefined || extra !== undefined) return undefined;
  const bytes = addressBytes(address);
  if (!bytes) return undefined;
  if (prefix === undefined) return { bytes, bits: bytes.length * 8 };
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bytes.length * 8) return undefined;
  return { bytes, bits: Number(prefix) };
}

/** Whether an address (as `addressBytes` gives it) is in a pattern's block. */
export function addressInPattern(address: Uint8Array, pattern: AddressPattern): boolean {
  if (address.length !== pattern.bytes.length) return false;
  let bits = pattern.bits;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((address[i] as number) & mask) !== ((pattern.bytes[i] as number) & mask)) return false;
  }
  return true;
}
