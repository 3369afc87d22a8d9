import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAVICON_PNG_32 } from '../../core/site/favicon-ico.js';
import { makeHandler } from './make-handler.js';

// Browsers and crawlers ask for /favicon.ico whatever a page names: they get Linklet's icon (the
// extension's own 32 px PNG in an ICO container), not the JSON 404 of a code that does not exist.

const png = readFileSync(join(import.meta.dirname, '../../public/icon/32.png'));

describe('/favicon.ico', () => {
  it('is the extension icon as an ICO, for GET and HEAD', async () => {
    const app = makeHandler();
    const response = await app.fetch('/favicon.ico');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/x-icon');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = Buffer.from(await response.arrayBuffer());
    // ICONDIR: reserved 0, type 1 (icon), one image; its entry says 32x32 and where the PNG is.
    expect([bytes.readUInt16LE(0), bytes.readUInt16LE(2), bytes.readUInt16LE(4)]).toEqual([0, 1, 1]);
    expect([bytes[6], bytes[7]]).toEqual([32, 32]);
    expect(bytes.readUInt32LE(14)).toBe(png.length);
    const offset = bytes.readUInt32LE(18);
    expect(bytes.subarray(offset).equals(png)).toBe(true);
    const head = await app.fetch('/favicon.ico', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('image/x-icon');
  });

  it('allows only GET and HEAD', async () => {
    const posted = await makeHandler().fetch('/favicon.ico', { method: 'POST' });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET, HEAD');
  });

  it('embeds public/icon/32.png byte for byte (a new icon updates both)', () => {
    expect(Buffer.from(FAVICON_PNG_32, 'base64').equals(png)).toBe(true);
  });
});
