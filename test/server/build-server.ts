import { execFileSync } from 'node:child_process';

/**
 * Vitest global setup: the server tests run the built server, exactly as `npm start` does, with
 * its web app (so `/` and `/assets/` answer as in production).
 */
export default function buildServer(): void {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.server.json'], {
    stdio: 'inherit',
  });
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '-c', 'vite.webapp.config.ts'], {
    stdio: 'inherit',
  });
}
