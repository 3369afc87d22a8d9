import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

export interface StaticFiles {
  /** `http://127.0.0.1:<port>`: a port of its own is an origin of its own, so calls to any other server are cross-origin. */
  origin: string;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/**
 * Serves a built single-page app from `dir`: a file where one exists, else `index.html`, since the
 * app routes in the browser (`/overview`, `/short-code/abc/visits`) and a reload asks for those paths.
 */
export async function serveStaticFiles(dir: string): Promise<StaticFiles> {
  const root = normalize(dir + sep);
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://site').pathname);
    const file = normalize(join(root, path));
    const inside = file.startsWith(root) && extname(file) !== '';
    void readFile(inside ? file : join(root, 'index.html')).then(
      (body) => {
        const type = CONTENT_TYPES[extname(inside ? file : 'index.html')] ?? 'application/octet-stream';
        response.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store' });
        response.end(body);
      },
      () => {
        response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
        response.end(`No ${path} in ${dir}.`);
      },
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
