import { healthUrlOf } from './health-url.js';

/** Longer than a store's slowest healthy answer, shorter than the image's check timeout (5 s). */
const ANSWER_WITHIN_MS = 4_000;

/**
 * The container image's `HEALTHCHECK` (`node dist/server/process/health-check.js`): exits 0 when
 * the server in this container answers `GET /health` with 200 (its store answers), 1 otherwise,
 * saying why on stderr (`docker inspect` shows it). A node script because the slim image has no
 * curl or wget; it reads `PORT` and `HOST` as the server does, so a changed port needs no
 * change of the check.
 */
async function check(): Promise<number> {
  let url: string;
  try {
    url = healthUrlOf(process.env);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
    if (response.ok) return 0;
    process.stderr.write(`${url} answered ${response.status}: ${await response.text()}\n`);
  } catch (error) {
    process.stderr.write(`${url} did not answer: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  return 1;
}

check().then((code) => process.exit(code));
