import { readFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_OPTIONS, startServer } from '../../scripts/server-process.mjs';
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

  it('runs the server with the Node.js options `npm start` gives it, and a size-limited one too', async () => {
    const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.start).toContain(`node ${SERVER_NODE_OPTIONS.join(' ')} dist/server/main.js`);
    const argumentsOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const plain = await servers.start({ DATABASE_URL: `sqlite:${servers.freshDb()}` }, { log: 'discard' });
    expect(argumentsOf(plain.pid)).toEqual(expect.arrayContaining([...SERVER_NODE_OPTIONS]));
    // Under `ulimit` the shell execs node itself, so the server is still the child the launcher knows.
    const limited = await servers.start(
      { DATABASE_URL: `sqlite:${servers.freshDb()}` },
      { log: 'discard', fileSizeBlocks: 1_000_000 },
    );
    expect(argumentsOf(limited.pid)).toEqual(expect.arrayContaining([...SERVER_NODE_OPTIONS]));
    expect((await fetch(`${limited.origin}/health`)).status).toBe(200);
  });

  it('says why a server that cannot start did not, with what it wrote to stderr', async () => {
    await expect(startServer({ DATABASE_URL: `sqlite:${servers.freshDb()}`, MAX_URL_LENGTH: '1' })).rejects.toThrow(
      /exited with 1 before serving:[\s\S]*MAX_URL_LENGTH/,
    );
  });

  it('says why a server that stopped after its logger started did not serve, with its error log lines', async () => {
    // A port another process holds: the server logs `cannot listen` (fatal, on stdout) and exits 1.
    const holder = createServer();
    await new Promise<void>((listening) => holder.listen(0, '127.0.0.1', listening));
    const { port } = holder.address() as AddressInfo;
    try {
      await expect(
        startServer({ DATABASE_URL: `sqlite:${servers.freshDb()}`, HOST: '127.0.0.1', PORT: String(port) }),
      ).rejects.toThrow(new RegExp(`exited with 1 before serving:[\\s\\S]*cannot listen on 127\\.0\\.0\\.1:${port}`));
    } finally {
      holder.close();
    }
  });
});
