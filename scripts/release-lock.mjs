// A lock between processes on one machine (test files run in separate workers), so that two of
// them never build the same release into the same folder at once.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const WAIT_MS = 20 * 60_000;
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** @param {number} pid */
function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
}

/**
 * Takes the lock (a folder: mkdir is atomic), runs `work`, and gives the lock back. A lock whose
 * holder process has died (a killed test run) is taken over rather than waited on for ever.
 * @template T
 * @param {string} lockDir
 * @param {() => T | Promise<T>} work
 * @returns {Promise<T>}
 */
export async function withLock(lockDir, work) {
  const owner = join(lockDir, 'pid');
  for (let waited = 0; ; waited += 500) {
    try {
      mkdirSync(lockDir);
      writeFileSync(owner, String(process.pid));
      break;
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
    }
    const holder = Number(readOr(owner, '0'));
    // No pid yet: the holder is between mkdir and writing it; give it a moment.
    if (holder > 0 && !isRunning(holder)) rmSync(lockDir, { recursive: true, force: true });
    if (waited > WAIT_MS) {
      throw new Error(`${lockDir} has been held by process ${holder} for 20 minutes; if no build runs, remove it.`);
    }
    await sleep(500);
  }
  try {
    return await work();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

/**
 * @param {string} file
 * @param {string} fallback
 */
function readOr(file, fallback) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}
