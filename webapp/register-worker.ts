/**
 * Registers the service worker (webapp/service-worker.ts, served as `sw.js` beside the page), which
 * keeps the page and its files so the installed app opens offline. Its scope is the page's folder,
 * the web app's path. Where there is none (a page over plain HTTP on another host than localhost,
 * a browser without service workers, a server without the built worker), the page works as
 * before, only not offline: nothing to tell the person.
 */
export function registerWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('./sw.js', { scope: './' }).catch(() => undefined);
}
