import { once } from 'node:events';
import { createServer } from 'node:http';

export interface LyingCompanion {
  /** `http://127.0.0.1:<port>`: entered in the options like any companion server. */
  url: string;
  /** How many shorten requests it answered. */
  shortens(): number;
  close(): Promise<void>;
}

/**
 * A real HTTP server that passes "Test connection" (it answers the v1 API description) and then
 * lies in every shorten reply: the success envelope carries `data` overlaid with `lie`. It answers
 * CORS as a companion server does, so the extension's requests reach it.
 */
export async function startLyingCompanion(lie: Record<string, unknown>): Promise<LyingCompanion> {
  let shortens = 0;
  const server = createServer((request, response) => {
    const headers = {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Headers': 'Content-Type, Accept',
      'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
      'Content-Type': 'application/json',
    };
    if (request.method === 'OPTIONS') {
      response.writeHead(204, headers).end();
      return;
    }
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      if (request.method === 'GET') {
        response
          .writeHead(200, headers)
          .end(JSON.stringify({ name: 'Linklet', version: 'v1', endpoint: `${url}/api/v1/shorten` }));
        return;
      }
      shortens++;
      const body = JSON.parse(text) as { original_url: string; custom_code?: string };
      const code = body.custom_code ?? 'lie2345';
      const data = {
        short_url: `${url}/${code}/`,
        original_url: body.original_url,
        code,
        expiration_date: new Date(Date.now() + 86_400_000).toISOString(),
        ...lie,
      };
      response
        .writeHead(201, headers)
        .end(JSON.stringify({ status: 'success', message: 'The URL was shortened.', data }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    shortens: () => shortens,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
