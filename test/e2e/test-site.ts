import { once } from 'node:events';
import { createServer } from 'node:http';

export interface TestSite {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The absolute URL of `path` on the site. */
  url(path: string): string;
  close(): Promise<void>;
}

/**
 * The pages the tests shorten: every path answers a small HTML page titled after it, so each
 * test can use its own URL and a tab is found by its URL alone.
 */
export async function startTestSite(): Promise<TestSite> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://site').pathname;
    const title = escapeHtml(decodeURIComponent(path));
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    response.end(
      `<!doctype html><html lang="en"><title>Test page ${title}</title>` +
        `<h1>Test page ${title}</h1><p><a href="https://example.com/linked">a link</a></p></html>`,
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (path) => new URL(path, origin).href,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
