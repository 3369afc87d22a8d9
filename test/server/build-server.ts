import { execFileSync } from 'node:child_process';

/** Vitest global setup: the server tests run the built server, exactly as `npm start` does. */
export default function buildServer(): void {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.server.json'], {
    stdio: 'inherit',
  });
}
