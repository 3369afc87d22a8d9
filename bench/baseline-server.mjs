// The yardstick: a bare node:http server doing the least each benchmarked route could do.
// GET answers a fixed 302; POST reads the body, parses it and answers a fixed 201 envelope.
import { createServer } from 'node:http';

const port = Number(process.env.PORT);
createServer((req, res) => {
  if (req.method === 'GET') {
    res.writeHead(302, { Location: 'https://example.com/', 'Cache-Control': 'private, max-age=60' }).end();
    return;
  }
  let body = '';
  req.on('data', (chunk) => {
    body += chunk;
  });
  req.on('end', () => {
    const { original_url } = JSON.parse(body);
    const data = {
      short_url: 'http://localhost/x/',
      original_url,
      code: 'x',
      expiration_date: new Date().toISOString(),
    };
    res
      .writeHead(201, { 'Content-Type': 'application/json' })
      .end(JSON.stringify({ status: 'success', message: 'ok', data }));
  });
}).listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
