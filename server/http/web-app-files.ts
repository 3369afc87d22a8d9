import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WebAppAsset, WebAppFiles } from '../../core/site/web-app.js';

/** Where `npm run build:webapp` writes the web app: `dist/webapp`, beside the built server. */
export const WEB_APP_DIR = fileURLToPath(new URL('../../webapp/', import.meta.url));

const TEXT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};
/** The install icons the manifest names (scripts/web-app-shell.ts emits them under assets/). */
const IMAGE_TYPES: Record<string, string> = { '.png': 'image/png' };

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Reads the built web app once at start, so a request never touches the disk. Undefined when it
 * was not built (`npm run build:server` alone): the server then answers `/` with JSON only.
 * A file of a type the page does not use (a stray source map, say) is left out.
 */
export async function loadWebAppFiles(dir: string = WEB_APP_DIR): Promise<WebAppFiles | undefined> {
  const page = await readOptional(join(dir, 'index.html'));
  if (page === undefined) return undefined;
  const assets = new Map<string, WebAppAsset>();
  for (const name of await readdir(join(dir, 'assets'))) {
    const path = join(dir, 'assets', name);
    const text = TEXT_TYPES[extname(name)];
    const image = IMAGE_TYPES[extname(name)];
    if (text !== undefined) assets.set(name, { contentType: text, body: await readFile(path, 'utf8') });
    else if (image !== undefined) assets.set(name, { contentType: image, body: new Uint8Array(await readFile(path)) });
  }
  return {
    page,
    assets,
    worker: await readOptional(join(dir, 'sw.js')),
    manifest: await readOptional(join(dir, 'manifest.webmanifest')),
  };
}
