import { shellKey } from './shell-request.js';

// The web app's service worker, built to `sw.js` (vite.webapp.config.ts). It keeps the shell (the
// page and the build's files) in a cache named after the build, serves it from there first, and
// leaves every other request to the browser (see shell-request.ts): short URLs and the API are
// never kept. The DOM library has no service worker types, and the WebWorker one cannot be
// loaded beside it in tsconfig.webapp.json, so the few parts used are declared here.

interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(response: Promise<Response>): void;
}
interface WorkerScope {
  registration: ServiceWorkerRegistration;
  clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
}

/** Written in by the build (scripts/web-app-shell.ts): its hash and its files, relative to the page. */
const BUILD = JSON.parse('__LINKLET_SHELL__') as { version: string; files: string[] };
const PREFIX = 'linklet-shell-';
const CACHE = `${PREFIX}${BUILD.version}`;
const worker = self as unknown as WorkerScope;

/** Fetches and keeps the page and each file; any failure fails the install (the old worker stays). */
async function keepShell(): Promise<void> {
  const cache = await caches.open(CACHE);
  const scope = worker.registration.scope;
  const page = fetch(scope, { headers: { Accept: 'text/html' }, redirect: 'error' });
  const files = BUILD.files.map((file) => fetch(new URL(file, scope), { redirect: 'error' }));
  const urls = [scope, ...BUILD.files.map((file) => new URL(file, scope).href)];
  const responses = await Promise.all([page, ...files]);
  await Promise.all(
    responses.map((response, index) => {
      if (!response.ok) throw new Error(`${urls[index]} answered ${response.status}; the shell was not kept.`);
      return cache.put(urls[index] as string, response);
    }),
  );
}

/** Drops the shells of earlier builds (the caches of other names are not this worker's). */
async function dropOldShells(): Promise<void> {
  for (const name of await caches.keys()) {
    if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
  }
}

async function fromShell(request: Request, key: string): Promise<Response> {
  // The page varies by Accept (JSON clients get the API description at `/`); only the page was kept.
  const kept = await caches.match(key, { cacheName: CACHE, ignoreVary: true });
  return kept ?? fetch(request);
}

worker.addEventListener('install', (event) => {
  // A new build's worker takes over at once: its page and files are all kept by now.
  event.waitUntil(keepShell().then(() => worker.skipWaiting()));
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(dropOldShells().then(() => worker.clients.claim()));
});

worker.addEventListener('fetch', (event) => {
  const key = shellKey(event.request, worker.registration.scope, BUILD.files);
  if (key !== undefined) event.respondWith(fromShell(event.request, key));
});
