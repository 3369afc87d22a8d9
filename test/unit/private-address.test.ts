import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPrivateHost } from '../../core/rules/private-address.js';

/** The host as the URL parser leaves it (what `isPrivateHost` is given): IPv6 compressed, in brackets. */
const hostOf = (host: string) => new URL(`http://${host}/`).hostname;
const privateAsWritten = (host: string) => isPrivateHost(hostOf(host));

const dotted = (value: number) => [24, 16, 8, 0].map((shift) => (value >>> shift) & 0xff).join('.');
const hex = (value: number) => `${((value >>> 16) & 0xffff).toString(16)}:${(value & 0xffff).toString(16)}`;
const group = (value: number) => (value & 0xffff).toString(16);

describe('isPrivateHost on IPv6 forms that carry an IPv4 address', () => {
  // 169.254.169.254 (the cloud metadata service) is a9fe:a9fe; 127.0.0.1 is 7f00:1.
  it.each([
    ['IPv4-mapped', '[::ffff:169.254.169.254]'],
    ['IPv4-compatible', '[::169.254.169.254]'],
    ['SIIT', '[::ffff:0:a9fe:a9fe]'],
    ['SIIT, dotted', '[::ffff:0:169.254.169.254]'],
    ['NAT64 well-known prefix', '[64:ff9b::a9fe:a9fe]'],
    ['NAT64 well-known prefix, dotted', '[64:ff9b::169.254.169.254]'],
    ['NAT64 local-use, /96', '[64:ff9b:1::a9fe:a9fe]'],
    ['NAT64 local-use, /48 (u octet skipped)', '[64:ff9b:1:a9fe:a9:fe00::]'],
    ['NAT64 local-use, /56', '[64:ff9b:1:a9:fe:a9fe::]'],
    ['NAT64 local-use, /64', '[64:ff9b:1:0:a9:fea9:fe00:0]'],
    ['6to4', '[2002:a9fe:a9fe::]'],
    ['6to4 with subnet and host', '[2002:a9fe:a9fe:1:2:3:4:5]'],
    ['6to4 of loopback', '[2002:7f00:1::1]'],
    ['Teredo, client inverted', '[2001:0:4136:e378:8000:63bf:5601:5601]'],
    ['Teredo of 10.0.0.1', '[2001::ffff:ffff:f5ff:fffe]'],
  ])('refuses %s %s', (_, host) => {
    expect(privateAsWritten(host)).toBe(true);
  });

  it.each([
    ['IPv4-mapped public', '[::ffff:8.8.8.8]'],
    ['NAT64 of a public address', '[64:ff9b::808:808]'],
    ['6to4 of a public address', '[2002:808:808::1]'],
    ['Teredo of a public client', '[2001:0:4136:e378:8000:63bf:f7f7:f7f7]'],
    ['documentation', '[2001:db8::a9fe:a9fe]'],
    ['global unicast ending like the metadata address', '[2600::a9fe:a9fe]'],
    ['6to4-looking but not 2002', '[2003:a9fe:a9fe::]'],
    ['NAT64-looking with bits between prefix and address', '[64:ff9b:0:0:1::a9fe:a9fe]'],
  ])('accepts %s %s', (_, host) => {
    expect(privateAsWritten(host)).toBe(false);
  });

  const ipv4 = fc.oneof(
    fc.integer({ min: 0, max: 0xffff_ffff }),
    // Each private range's edges and inside, so both outcomes come up often.
    fc.constantFrom(0x0a00_0000, 0x7f00_0001, 0xa9fe_a9fe, 0xac10_0000, 0xac1f_ffff, 0xc0a8_0101, 0x6440_0000),
    fc.integer({ min: 0xa9fe_0000, max: 0xa9fe_ffff }),
  );
  const word = fc.integer({ min: 0, max: 0xffff });

  it('judges every embedding of an IPv4 address as the IPv4 address itself', () => {
    fc.assert(
      fc.property(ipv4, word, word, word, word, (value, a, b, c, d) => {
        const expected = privateAsWritten(dotted(value));
        const inverted = ~value >>> 0;
        const forms = [
          `[::ffff:${dotted(value)}]`,
          `[::ffff:0:${hex(value)}]`,
          `[64:ff9b::${dotted(value)}]`,
          `[2002:${hex(value)}:${group(a)}:${group(b)}:${group(c)}:${group(d)}:${group(a ^ d)}]`,
          `[2001:0:${group(a)}:${group(b)}:${group(c)}:${group(d)}:${hex(inverted)}]`,
        ];
        // IPv4-compatible: `::` and `::1` are this host whatever the rule, and 0.0.0.x is private anyway.
        if (value > 0xffff) forms.push(`[::${dotted(value)}]`);
        for (const form of forms) expect(privateAsWritten(form), `${form} for ${dotted(value)}`).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses a local-use NAT64 address whenever its /96 reading is private', () => {
    fc.assert(
      fc.property(ipv4, word, word, (value, a, b) => {
        fc.pre(privateAsWritten(dotted(value)));
        expect(privateAsWritten(`[64:ff9b:1:${group(a)}:${group(b)}:0:${hex(value)}]`)).toBe(true);
      }),
    );
  });
});
