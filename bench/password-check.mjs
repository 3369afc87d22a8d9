// `node bench/password-check.mjs` (after `npm run build:server`): what one link-password check
// costs the server — one scrypt (N=16384, r=8, p=1) — in wall-clock ms and in CPU ms (user +
// system of the whole process, so the libuv thread that runs scrypt counts), and the same for
// the extension's PBKDF2 (600 000 iterations) through WebCrypto. Not part of `npm test`.
//
//   BENCH_CHECKS=20   checks measured per hasher (after 2 to warm up); the median is reported
import { createPbkdf2PasswordHasher } from '../dist/core/passwords/pbkdf2-password-hasher.js';
import { createScryptPasswordHasher } from '../dist/server/passwords/scrypt-password-hasher.js';

const CHECKS = Number(process.env.BENCH_CHECKS ?? 20);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function measure(name, hasher) {
  const stored = await hasher.hash('correct horse battery');
  for (let i = 0; i < 2; i++) await hasher.verify('a wrong guess', stored);
  const wall = [];
  const cpu = [];
  for (let i = 0; i < CHECKS; i++) {
    const startCpu = process.cpuUsage();
    const start = performance.now();
    const ok = await hasher.verify(i % 2 ? 'correct horse battery' : 'a wrong guess', stored);
    wall.push(performance.now() - start);
    const used = process.cpuUsage(startCpu);
    cpu.push((used.user + used.system) / 1000);
    if (ok !== (i % 2 === 1)) throw new Error(`${name}: check ${i} gave ${ok}`);
  }
  return {
    hasher: name,
    checks: CHECKS,
    wall_ms_median: +median(wall).toFixed(1),
    cpu_ms_median: +median(cpu).toFixed(1),
  };
}

const rows = [
  await measure('scrypt N=16384 r=8 p=1 (server)', createScryptPasswordHasher()),
  await measure('PBKDF2-SHA256 600k (extension)', createPbkdf2PasswordHasher()),
];
console.table(rows);
console.log(
  `At 5 tries a minute per client and link, one client costs the server at most ${(rows[0].cpu_ms_median * 5).toFixed(0)} ms of CPU a minute per link.`,
);
