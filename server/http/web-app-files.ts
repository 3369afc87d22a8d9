import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WebAppAsset, WebAppFiles } from '../../core/site/web-app.js';

/** Where `npm run build:webapp` writes the web app: `dist/webapp`, beside the built server. */
export const WEB_APP_DIR = fileURLToPath(new URL('../../webapp/', import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * Reads the built web app once at start, so a request never touches the disk. Undefined when it
 * was not built (`npm run build:server` alone): the server then answers `/` with JSON only.
 * A file of a type the page does not use (a stray source map, say) is left out.
 */
export async function loadWebAppFiles(dir: string = WEB_APP_DIR): Promise<WebAppFiles | undefined> {
  let page: string;
  try {
    page = await readFile(join(dir, 'index.html'), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const assets = new Map<string, WebAppAsset>();
  for (const name of await readdir(join(dir, 'assets'))) {
    const contentType = CONTENT_TYPES[extname(name)];
    if (contentType === undefined) continue;
    assets.set(name, { contentType, body: await readFile(join(dir, 'assets', name), 'utf8') });
  }
  return { page, assets };
}
