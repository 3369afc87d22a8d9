// Types of server-process.mjs, for the TypeScript tests that import it.
import type { ChildProcess } from 'node:child_process';

export declare const SERVER_MAIN: string;
export declare const SERVER_NODE_OPTIONS: readonly string[];

export interface StartOptions {
  /** Where the server's log goes: parsed into `logs` (default), appended to a file, or dropped. */
  log?: 'collect' | 'discard' | { file: string };
  /** The script to run instead of the built server (e.g. the bench's baseline). */
  script?: string;
  /** The Node.js binary to run it with (an earlier release on the Node it was built for); default: this one. */
  node?: string;
  /** Node.js options before the script; default: `SERVER_NODE_OPTIONS`, as `npm start` gives the server. */
  nodeOptions?: readonly string[];
  /** A program (and its options) to run `node` under, such as `['valgrind', '--tool=cachegrind']`. */
  under?: readonly string[];
  /** How long to wait for it to serve (default 30 s; a server under valgrind starts slowly). */
  startTimeoutMs?: number;
  /** Pass this process's environment on too (under `env`); by default only `PATH`. */
  inheritEnv?: boolean;
  /** Run under a soft RLIMIT_FSIZE of this many 512-byte blocks: writes past it fail, as on a full disk. */
  fileSizeBlocks?: number;
  /** As root, run without the capabilities that let root ignore file permissions. */
  obeyPermissions?: boolean;
}

export interface RunningServer {
  /** BASE_URL: what short URLs start with. */
  url: string;
  /** Where to send requests: loopback IPv4, whatever localhost resolves to on this machine. */
  origin: string;
  port: number;
  pid: number;
  process: ChildProcess;
  /** Every JSON log line so far (with `log: 'collect'`). */
  logs: Array<Record<string, unknown>>;
  stderr(): string;
  /** Whether the process is still running. */
  alive(): boolean;
  /** Settles once the process has exited and its output is drained. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the log lines matching `predicate` once there are `count` of them (or after 5 s). */
  waitForLogs(
    predicate: (entry: Record<string, unknown>) => boolean,
    count: number,
  ): Promise<Array<Record<string, unknown>>>;
  /** Sends a signal (SIGTERM by default) unless the process has exited; resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** A free TCP port on loopback, picked by the kernel. */
export declare function freePort(): Promise<number>;

/** Starts a server process and resolves once it serves (see server-process.mjs). */
export declare function startServer(env: Record<string, string>, options?: StartOptions): Promise<RunningServer>;

/** Runs the server expecting it to refuse to start; resolves with its exit code and stderr. */
export declare function runFailingServer(env: Record<string, string>): Promise<{ code: number | null; stderr: string }>;

/** Waits until a process's CPU time stands still for half a second (at most `limitMs`). */
export function waitUntilIdle(pid: number, limitMs?: number): Promise<void>;
