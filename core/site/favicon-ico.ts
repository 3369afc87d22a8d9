/**
 * `/favicon.ico`: browsers, feed readers and crawlers ask for it whatever a page names, and a JSON
 * 404 there fills logs and leaves a blank tab icon. The answer is the extension's own 32 px icon
 * (public/icon/32.png, checked equal by test/api/favicon-ico.test.ts) in an ICO container, which
 * since Windows Vista may hold a PNG as is: one small file every reader of `.ico` understands.
 */
export const FAVICON_ICO_PATH = '/favicon.ico';

/** public/icon/32.png, byte for byte. */
export const FAVICON_PNG_32 =
  'iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAABhUlEQVR4nM2XMU7EMBBF3adJzU24AbdIOsQF6JC2QVyAjnapqWnhABEV9dYUS0M98LX52mGwHXvjxIw0ym5i5T/PjMexazpxytuf66bpZGg6kcI+jO9utaYW75tO9gsIW9+PWr8A+hWErfcEaFeauS8SrRvzsrY4feMWKrhUH9zUoLMrketHkZd3ke2ryOVDWYgowPmNyOeX/DHAAGxRAAhQHIK3TyL3z8d7b7syEEEAhJ3ioaiUgAgCQBiGmcdSMxciCICCgyHsU/UxByIIgGqHQQRi9vnF3UFYW1EAnQYLQTif5UYiCoCXcZaEwMxpSBP+7z6O93LTkdSINAR/Q1ynQ1sOxCSAhaBB1BYsxuQWZhKADwJhBwTFCZW7OpIBCBEyvUdoCNvIZgHQbb51OnwQsQ3sJADf6vCNQxOzBVsEIBUCbXwqDScDpECwkWFjWwTAB4GwY+a6i8ZWwmwAQlBQW6w+igLQUe0oOMAg7KmNqPpHafXP8uoHk+pHs39xOK12PP8GgApFO+wU3n8AAAAASUVORK5CYII=';

const ICON_SIZE = 32;
const HEADER_BYTES = 6;
const ENTRY_BYTES = 16;

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}

/** The ICO file: a header, one directory entry, then the PNG (all numbers little-endian). */
function buildIco(png: Uint8Array): Uint8Array<ArrayBuffer> {
  const ico = new Uint8Array(HEADER_BYTES + ENTRY_BYTES + png.length);
  const view = new DataView(ico.buffer);
  view.setUint16(2, 1, true); // type 1: icon
  view.setUint16(4, 1, true); // one image
  ico[6] = ICON_SIZE; // width
  ico[7] = ICON_SIZE; // height
  view.setUint16(10, 1, true); // colour planes
  view.setUint16(12, 32, true); // bits per pixel
  view.setUint32(14, png.length, true);
  view.setUint32(18, HEADER_BYTES + ENTRY_BYTES, true);
  ico.set(png, HEADER_BYTES + ENTRY_BYTES);
  return ico;
}

/** The bytes served at `/favicon.ico`, made once. */
export const FAVICON_ICO: Uint8Array<ArrayBuffer> = buildIco(fromBase64(FAVICON_PNG_32));

/** Its headers: the type browsers expect of an `.ico`, a day in caches like `/favicon.svg`. */
export const FAVICON_ICO_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'image/x-icon',
  'Cache-Control': 'public, max-age=86400',
});
