// Lints the OpenAPI document exactly as the server serves it (the built core handler's answer to
// `GET /api/v1/openapi.json`, default settings) with Redocly's rules in redocly.yaml. Run after
// `tsc -p tsconfig.server.json` (`npm run lint:openapi` does both); exits non-zero on any problem.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHandler } from '../dist/core/handler.js';
import { createMemoryLinkStore } from '../dist/core/store/memory-link-store.js';
import { createMemoryWebhookStore } from '../dist/core/webhooks/memory-webhook-store.js';
import { createWebhookDirectory } from '../dist/core/webhooks/webhook-directory.js';

// With webhooks, as the server serves it: their routes and the document's `webhooks` are linted too.
const webhookStore = createMemoryWebhookStore();
const webhooks = { store: webhookStore, directory: createWebhookDirectory(webhookStore), blockPrivateTargets: true };
const handler = createHandler({ store: createMemoryLinkStore(), baseUrl: 'http://localhost:8080', webhooks });
const response = await handler(new Request('http://localhost:8080/api/v1/openapi.json'));
if (response.status !== 200) throw new Error(`GET /api/v1/openapi.json answered ${response.status}`);

const dir = mkdtempSync(join(tmpdir(), 'linklet-openapi-'));
const file = join(dir, 'openapi.json');
writeFileSync(file, JSON.stringify(await response.json(), null, 2));
const cli = join(import.meta.dirname, '../node_modules/@redocly/cli/bin/cli.js');
const lint = spawnSync(process.execPath, [cli, 'lint', '--config', 'redocly.yaml', '--format', 'json', file], {
  encoding: 'utf8',
  // A lint is no reason to call home: no usage telemetry, no update check.
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
});
rmSync(dir, { recursive: true, force: true });
let report;
try {
  report = JSON.parse(lint.stdout);
} catch {
  console.error(`Redocly did not report (exit ${lint.status}):\n${lint.stderr}`);
  process.exit(1);
}
for (const problem of report.problems) {
  console.error(`${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`);
}
const { errors, warnings } = report.totals;
console.log(`OpenAPI lint (Redocly ${report.version}, redocly.yaml): ${errors} errors, ${warnings} warnings.`);
// Warnings fail too: each one is either fixed or its rule switched off in redocly.yaml with a reason.
if (errors > 0 || warnings > 0) process.exit(1);
