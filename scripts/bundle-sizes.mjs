// Prints what each extension entrypoint loads: its own file plus every chunk and stylesheet it
// pulls in, raw and gzipped. WXT's own table lists files; shared chunks hide an entrypoint's cost.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';

const outDir = process.argv[2] ?? '.output/chrome-mv3';
// index.html: the server's web app (dist/webapp).
const entrypoints = ['background.js', 'popup.html', 'options.html', 'open.html', 'index.html'];

function references(file, text) {
  const found = [];
  const patterns = file.endsWith('.html')
    ? [/<script[^>]+src="([^"]+)"/g, /<link[^>]+href="([^"]+\.(?:js|css))"/g]
    : [/(?:import|export)[^"'`]*?from\s*["']([^"']+)["']/g, /import\s*["']([^"']+)["']/g];
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) found.push(match[1]);
  return found.map((ref) => (ref.startsWith('/') ? ref.slice(1) : posix.join(dirname(file), ref)));
}

function closure(entry) {
  const seen = new Set();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file) || !existsSync(join(outDir, file))) continue;
    seen.add(file);
    queue.push(...references(file, readFileSync(join(outDir, file), 'utf8')));
  }
  return [...seen];
}

const kB = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
console.log(`\nBundle sizes (${outDir}), each entrypoint with everything it loads:`);
for (const entry of entrypoints) {
  if (!existsSync(join(outDir, entry))) continue;
  const contents = closure(entry).map((file) => readFileSync(join(outDir, file)));
  const raw = contents.reduce((sum, buffer) => sum + buffer.length, 0);
  const gzip = contents.reduce((sum, buffer) => sum + gzipSync(buffer).length, 0);
  console.log(
    `  ${entry.padEnd(14)} ${kB(raw).padStart(9)} raw  ${kB(gzip).padStart(8)} gzip  (${contents.length} files)`,
  );
}
