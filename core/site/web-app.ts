import type { Answer } from '../http/answer.js';
import { SECURITY_HEADERS } from '../http/security-headers.js';

/** One built file of the web app: scripts and styles as text, the install icons (PNG) as bytes. */
export interface WebAppAsset {
  contentType: string;
  body: string | Uint8Array<ArrayBuffer>;
}

/**
 * The built web app, handed to the handler by its host: the core reads no files, so the server
 * loads them from disk once at start (server/http/web-app-files.ts). Asset names carry a content
 * hash, which is what lets them be cached for a year.
 */
export interface WebAppFiles {
  /** `index.html`: the page a browser gets at `/`. */
  page: string;
  /** By file name (`index-3f2a9c1b.js`), as the page links them under `assets/`. */
  assets: ReadonlyMap<string, WebAppAsset>;
  /**
   * `sw.js`, the service worker that keeps the page and its assets for use offline, and
   * `manifest.webmanifest`, which makes the page installable and a share target (served by
   * web-app-shell.ts). Absent from a build older than them: those paths are then 404s.
   */
  worker?: string;
  manifest?: string;
}

/**
 * The web app's policy: its own scripts, styles and API only, nothing inline, never framed. The
 * error page's stricter policy (no script at all) stays on every other response.
 */
export const WEB_APP_CSP =
  "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'";

/** The headers of what runs as the web app (its page, scripts, styles and service worker). */
export const APP_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...SECURITY_HEADERS,
  'Content-Security-Policy': WEB_APP_CSP,
});

/**
 * The page at `/`. `no-cache`: a browser revalidates it, so a new build's page (naming new asset
 * hashes) is seen at once; `Vary: Accept` because JSON clients get the API description there.
 */
export function webAppPage(files: WebAppFiles): Answer {
  return {
    status: 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-cache',
      Vary: 'Accept',
      ...APP_HEADERS,
    },
    body: files.page,
  };
}

/** An answer whose body may be bytes (an icon). */
export type WebAppAssetAnswer = Omit<Answer, 'body'> & { body: string | Uint8Array<ArrayBuffer> };

/**
 * An asset by file name, cached for good (its name changes with its content); undefined: no such
 * file. An icon is an image, not part of the running app: it keeps the strict policy of the rest.
 */
export function webAppAsset(files: WebAppFiles, name: string): WebAppAssetAnswer | undefined {
  const asset = files.assets.get(name);
  if (asset === undefined) return undefined;
  return {
    status: 200,
    headers: {
      'Content-Type': asset.contentType,
      'Cache-Control': 'public, max-age=31536000, immutable',
      ...(typeof asset.body === 'string' ? APP_HEADERS : SECURITY_HEADERS),
    },
    body: asset.body,
  };
}
