// UTF-8 of well-formed strings, written and compared in place: the link cache looks a code up
// among its bytes without making a string (or an encoder's buffer) per request.

/** The UTF-8 length of a well-formed string. */
export function utf8Length(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) length += 1;
    else if (unit < 0x800) length += 2;
    else if (unit >= 0xd800 && unit < 0xdc00) {
      length += 4; // a surrogate pair: one code point of four bytes
      i++;
    } else length += 3;
  }
  return length;
}

/** Writes a well-formed string as UTF-8 at `at`; returns the position after it. */
export function writeUtf8(bytes: Uint8Array, at: number, text: string): number {
  let p = at;
  for (let i = 0; i < text.length; i++) {
    let point = text.charCodeAt(i);
    if (point < 0x80) {
      bytes[p++] = point;
      continue;
    }
    if (point < 0x800) {
      bytes[p++] = 0xc0 | (point >> 6);
    } else {
      if (point >= 0xd800 && point < 0xdc00) {
        point = 0x10000 + ((point - 0xd800) << 10) + (text.charCodeAt(++i) - 0xdc00);
        bytes[p++] = 0xf0 | (point >> 18);
        bytes[p++] = 0x80 | ((point >> 12) & 0x3f);
      } else {
        bytes[p++] = 0xe0 | (point >> 12);
      }
      bytes[p++] = 0x80 | ((point >> 6) & 0x3f);
    }
    bytes[p++] = 0x80 | (point & 0x3f);
  }
  return p;
}

/** Whether the `length` bytes at `at` are exactly the UTF-8 of `text`. */
export function equalsUtf8(bytes: Uint8Array, at: number, length: number, text: string): boolean {
  const end = at + length;
  let p = at;
  for (let i = 0; i < text.length; i++) {
    let point = text.charCodeAt(i);
    if (point < 0x80) {
      if (p >= end || bytes[p++] !== point) return false;
      continue;
    }
    if (point >= 0xd800 && point < 0xdc00 && i + 1 < text.length) {
      point = 0x10000 + ((point - 0xd800) << 10) + (text.charCodeAt(++i) - 0xdc00);
    }
    const size = point < 0x800 ? 2 : point < 0x10000 ? 3 : 4;
    if (p + size > end) return false;
    const lead = size === 2 ? 0xc0 | (point >> 6) : size === 3 ? 0xe0 | (point >> 12) : 0xf0 | (point >> 18);
    if (bytes[p++] !== lead) return false;
    for (let shift = (size - 2) * 6; shift >= 0; shift -= 6) {
      if (bytes[p++] !== (0x80 | ((point >> shift) & 0x3f))) return false;
    }
  }
  return p === end;
}
