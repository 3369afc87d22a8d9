import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

const MAIN = resolve('dist/server/main.js');

export interface RunningServer {
  /** BASE_URL: what short URLs start with. */
  url: string;
  /** Where to send requests: loopback IPv4, whatever localhost resolves to on this machine. */
  origin: string;
  process: ChildProcess;
  /** Every JSON log line so far. */
  logs: Array<Record<string, unknown>>;
  stderr: () => string;
  /** Resolves with the log lines matching `predicate` once there are `count` of them. */
  waitForLogs(
    predicate: (entry: Record<string, unknown>) => boolean,
    count: number,
  ): Promise<Array<Record<string, unknown>>>;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** A free TCP port on loopback, picked by the kernel. */
export async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  probe.close();
  await once(probe, 'close');
  return port;
}

/** Starts `node dist/server/main.js` with `env` and waits until it logs that it is serving. */
export async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const port = env.PORT ?? String(await freePort());
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', PORT: port, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Array<Record<string, unknown>> = [];
  let stderr = '';
  let pending = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const ready = new Promise<void>((resolveReady, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        if (String(entry.msg).startsWith('Linklet is serving')) resolveReady();
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before serving:\n${stderr}`)));
  });
  await ready;
  // 'close', not 'exit': it waits for stdout to drain, so every log line is in `logs`.
  const exited = once(child, 'close').then(([code]) => code as number | null);
  return {
    url: env.BASE_URL ?? `http://localhost:${port}`,
    origin: `http://127.0.0.1:${port}`,
    process: child,
    logs,
    stderr: () => stderr,
    async waitForLogs(predicate, count) {
      // stdout arrives on its own pipe, so a response can reach the test before its log line.
      for (let waited = 0; waited < 5000; waited += 20) {
        const matching = logs.filter(predicate);
        if (matching.length >= count) return matching;
        await new Promise((resolveWait) => setTimeout(resolveWait, 20));
      }
      return logs.filter(predicate);
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs the server expecting it to refuse to start; resolves with its exit code and stderr. */
export async function runFailingServer(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const [code] = await once(child, 'exit');
  return { code: code as number | null, stderr };
}
