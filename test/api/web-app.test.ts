import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../core/http/security-headers.js';
import { WEB_APP_CSP, type WebAppFiles } from '../../core/site/web-app.js';
import { loadWebAppFiles } from '../../server/http/web-app-files.js';
import { makeHandler } from './make-handler.js';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const PAGE = '<!doctype html><title>Linklet</title><script type="module" src="./assets/index-AbC123xy.js"></script>';
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0xff]);
const webApp: WebAppFiles = {
  page: PAGE,
  assets: new Map([
    ['index-AbC123xy.js', { contentType: 'text/javascript; charset=utf-8', body: 'console.log(1)' }],
    ['index-Zz9Yy8Xx.css', { contentType: 'text/css; charset=utf-8', body: 'body{}' }],
    ['icon-192-Qq7Ww6Ee.png', { contentType: 'image/png', body: PNG }],
  ]),
  worker: 'self.addEventListener("fetch", () => {});',
  manifest: '{"name":"Linklet"}',
};

describe('the web app at /', () => {
  it('answers a browser with the page: no-cache, Vary: Accept, its own policy', async () => {
    const app = makeHandler({ webApp });
    const response = await app.fetch('/', { headers: { Accept: BROWSER } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('vary')).toBe('Accept');
    expect(response.headers.get('content-security-policy')).toBe(WEB_APP_CSP);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toBe(PAGE);
  });

  it('keeps the API description for JSON clients, with the strict policy', async () => {
    const app = makeHandler({ webApp });
    for (const accept of [undefined, 'application/json', 'text/html;q=0, application/json', '*/*']) {
      const response = await app.fetch('/', accept === undefined ? {} : { headers: { Accept: accept } });
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await response.json()).name).toBe('Linklet');
      expect(response.headers.get('vary')).toBe('Accept');
      expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    }
  });

  it('serves the assets by name for good, and 404s any other name', async () => {
    const app = makeHandler({ webApp });
    const script = await app.fetch('/assets/index-AbC123xy.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(script.headers.get('content-security-policy')).toBe(WEB_APP_CSP);
    expect(await script.text()).toBe('console.log(1)');
    const head = await app.fetch('/assets/index-Zz9Yy8Xx.css', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    for (const path of ['/assets/index-00000000.js', '/assets/..%2Fpackage.json', '/assets/']) {
      const missing = await app.fetch(path);
      expect(missing.status, path).toBe(404);
      expect(missing.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    }
    expect((await app.fetch('/assets/index-AbC123xy.js', { method: 'POST' })).status).toBe(404);
  });

  it('serves an icon as bytes, with the strict policy of what does not run', async () => {
    const icon = await makeHandler({ webApp }).fetch('/assets/icon-192-Qq7Ww6Ee.png');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/png');
    expect(icon.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(icon.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(new Uint8Array(await icon.arrayBuffer())).toEqual(PNG);
  });

  it('serves the service worker and the manifest beside the page, never kept stale', async () => {
    const app = makeHandler({ webApp });
    const worker = await app.fetch('/sw.js');
    expect(worker.status).toBe(200);
    expect(worker.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    // The worker's own policy is the one it runs under: it must let it fetch the page and assets.
    expect(worker.headers.get('content-security-policy')).toBe(WEB_APP_CSP);
    expect(await worker.text()).toBe(webApp.worker);
    const manifest = await app.fetch('/manifest.webmanifest');
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('content-type')).toBe('application/manifest+json');
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    expect(await manifest.text()).toBe(webApp.manifest);
    // The page's policy lets it load both: `default-src 'self'` is what worker-src and manifest-src fall back to.
    expect(WEB_APP_CSP).toMatch(/^default-src 'self';/);
    expect(WEB_APP_CSP).not.toMatch(/worker-src|manifest-src|script-src|child-src/);
  });

  it('without a built web app, / is JSON for everyone and /assets/ has nothing', async () => {
    const app = makeHandler();
    const response = await app.fetch('/', { headers: { Accept: BROWSER } });
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    for (const path of ['/assets/index-AbC123xy.js', '/sw.js', '/manifest.webmanifest']) {
      expect((await app.fetch(path)).status, path).toBe(404);
    }
  });
});

describe('loadWebAppFiles', () => {
  it('reads the page, its worker and manifest, the scripts, stylesheets and icons of a build, and nothing else', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'linklet-webapp-files-'));
    try {
      expect(await loadWebAppFiles(dir)).toBeUndefined(); // not built
      await mkdir(join(dir, 'assets'));
      await writeFile(join(dir, 'index.html'), PAGE);
      await writeFile(join(dir, 'assets', 'index-AbC123xy.js'), 'console.log("한글")');
      await writeFile(join(dir, 'assets', 'index-Zz9Yy8Xx.css'), 'body{}');
      await writeFile(join(dir, 'assets', 'index-AbC123xy.js.map'), '{}');
      expect((await loadWebAppFiles(dir))?.worker, 'a build from before the worker').toBeUndefined();
      await writeFile(join(dir, 'assets', 'icon-192-Qq7Ww6Ee.png'), PNG);
      await writeFile(join(dir, 'sw.js'), 'self;');
      await writeFile(join(dir, 'manifest.webmanifest'), '{}');
      const files = await loadWebAppFiles(dir);
      expect(files?.page).toBe(PAGE);
      expect(files?.worker).toBe('self;');
      expect(files?.manifest).toBe('{}');
      expect(files?.assets.get('icon-192-Qq7Ww6Ee.png')).toEqual({ contentType: 'image/png', body: PNG });
      expect([...(files?.assets.keys() ?? [])].sort()).toEqual([
        'icon-192-Qq7Ww6Ee.png',
        'index-AbC123xy.js',
        'index-Zz9Yy8Xx.css',
      ]);
      expect(files?.assets.get('index-AbC123xy.js')).toEqual({
        contentType: 'text/javascript; charset=utf-8',
        body: 'console.log("한글")',
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the OpenAPI document', () => {
  it('declares the page at / and the assets with their media types', async () => {
    const doc = await (await makeHandler().fetch('/api/v1/openapi.json')).json();
    expect(Object.keys(doc.paths['/'].get.responses['200'].content).sort()).toEqual(['application/json', 'text/html']);
    const asset = doc.paths['/assets/{file}'].get;
    expect(Object.keys(asset.responses['200'].content).sort()).toEqual(['image/png', 'text/css', 'text/javascript']);
    expect(asset.responses['404']).toBeDefined();
  });
});
