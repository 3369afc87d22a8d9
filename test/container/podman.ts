import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * Podman as the container test runs it on a machine without systemd or cgroup v2 delegation:
 * runc (crun is not packaged for every release) and cgroupfs (no systemd to ask).
 */
export const PODMAN = ['podman', '--runtime', 'runc', '--cgroup-manager', 'cgroupfs'];

/** Runs podman and returns its stdout, trimmed; a failure's message carries podman's stderr. */
export async function podman(...args: string[]): Promise<string> {
  try {
    const { stdout } = await execFileAsync(PODMAN[0] as string, [...PODMAN.slice(1), ...args], {
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout.trim();
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`podman ${args.join(' ')} failed:\n${stderr ?? ''}${stdout ?? ''}`);
  }
}

/** The exit code of podman with `args` (a health check's, an exec's), its output discarded. */
export async function podmanExitCode(...args: string[]): Promise<number> {
  try {
    await execFileAsync(PODMAN[0] as string, [...PODMAN.slice(1), ...args]);
    return 0;
  } catch (error) {
    const { code } = error as { code?: unknown };
    if (typeof code === 'number') return code;
    throw error;
  }
}

/**
 * Runs a long command (apt-get, the base images, an image build) with its output shown as it
 * comes, so a run of many minutes says what it is doing; rejects with its exit code.
 */
export function runShown(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} exited with ${signal ?? code}`));
    });
  });
}
