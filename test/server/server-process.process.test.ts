import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../scripts/server-process.mjs';
import { useServerProcesses } from './use-server-processes.js';

// The launcher that tests, the bench and the fault script share (scripts/server-process.mjs).

const servers = useServerProcesses('launcher');

const logLinesIn = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the server process launcher', () => {
  it('appends the log to a file that the server writes itself, as `npm start > linklet.log` would', async () => {
    const logFile = `${servers.freshDb()}.log`;
    const server = await servers.start({ DATABASE_URL: `sqlite:${servers.freshDb()}` }, { log: { file: logFile } });
    expect((await fetch(`${server.origin}/not-a-code`)).status).toBe(404);
    expect(await server.stop()).toBe(0);

    const lines = logLinesIn(logFile);
    expect(lines.some((line) => String(line.msg).startsWith('Linklet is serving'))).toBe(true);
    expect(lines.some((line) => line.path === '/not-a-code' && line.status === 404)).toBe(true);
    expect(server.logs).toEqual([]);
  });

  it('knows when a server whose log it drops serves, by asking /health', async () => {
    const server = await servers.start({ DATABASE_URL: `sqlite:${servers.freshDb()}` }, { log: 'discard' });
    expect((await fetch(`${server.origin}/health`)).status).toBe(200);
    expect(server.logs).toEqual([]);
  });

  it('says why a server that cannot start did not, with what it wrote to stderr', async () => {
    await expect(startServer({ DATABASE_URL: `sqlite:${servers.freshDb()}`, MAX_URL_LENGTH: '1' })).rejects.toThrow(
      /exited with 1 before serving:[\s\S]*MAX_URL_LENGTH/,
    );
  });
});
