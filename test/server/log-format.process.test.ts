import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useServerProcesses } from './use-server-processes.js';

// A pty is hard to give a child in a test, so the terminal's format is asked for by name
// (LOG_FORMAT=pretty); a pipe, the launcher's default, gets JSON lines.

const servers = useServerProcesses('log-format');

describe('the server log format', () => {
  it('LOG_FORMAT=pretty writes the start sentence and lines a person reads', async () => {
    const logFile = `${servers.freshDb()}.log`;
    const db = servers.freshDb();
    const server = await servers.start(
      { DATABASE_URL: `sqlite:${db}`, LOG_FORMAT: 'pretty' },
      { log: { file: logFile } },
    );
    expect((await fetch(`${server.origin}/not-a-code`)).status).toBe(404);
    expect(await server.stop()).toBe(0);

    const lines = readFileSync(logFile, 'utf8').split('\n').filter(Boolean);
    expect(lines.filter((line) => line.startsWith('{'))).toEqual([]);
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^\\d\\d:\\d\\d:\\d\\d INFO  Linklet is serving ${server.url} on SQLite \\(${db}\\)\\. Make a key: npm run --silent keys -- create --name NAME$`,
        ),
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^\d\d:\d\d:\d\d INFO {2}GET \/not-a-code 404 [\d.]+ ms reqId=/),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^\d\d:\d\d:\d\d INFO {2}stopped$/));
  });

  it('writes JSON lines to a pipe, the start line with its fields', async () => {
    const server = await servers.start({ DATABASE_URL: `sqlite:${servers.freshDb()}` });
    const serving = server.logs.find((entry) => String(entry.msg).startsWith('Linklet is serving'));
    expect(serving).toMatchObject({ msg: `Linklet is serving ${server.url}`, url: server.url, host: '127.0.0.1' });
    expect(String(serving?.store)).toMatch(/^sqlite:/);
  });
});
