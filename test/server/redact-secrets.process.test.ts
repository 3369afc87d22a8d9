import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, runFailingServer } from '../../scripts/server-process.mjs';
import { createRedactor, redactConnectionString, secretsOf } from '../../server/process/redact-secrets.js';

const PASSWORD = 'S3cret!pw';
const QUERY_PASSWORD = 'AnotherSecret9';
const SSL_PASSWORD = 'ThirdSecret7';

/** Every spelling of the test's secrets that must never be printed. */
const expectNoSecret = (text: string) => {
  for (const secret of [PASSWORD, encodeURIComponent(PASSWORD), QUERY_PASSWORD, SSL_PASSWORD]) {
    expect(text).not.toContain(secret);
  }
};

describe('secrets in messages and log lines', () => {
  it('are not in the start-up error of an unreachable PostgreSQL, wherever the URL carries them', async () => {
    const port = await freePort(); // nothing listens there
    const url =
      `postgres://linklet:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}/links` +
      `?password=${QUERY_PASSWORD}&sslpassword=${SSL_PASSWORD}`;
    const { code, stderr } = await runFailingServer({ DATABASE_URL: url });
    expect(code).toBe(1);
    expect(stderr).toContain(`Cannot connect to PostgreSQL at postgres://linklet:***@127.0.0.1:${port}/links`);
    expect(stderr).toContain('password=***');
    expectNoSecret(stderr);
  });

  it('are blanked in every log line, in messages and error fields alike', () => {
    // A real process and the server's own logger, writing JSON lines to its stdout.
    const script = `
      const { createLogger } = await import(${JSON.stringify(resolve('dist/server/process/logger.js'))});
      const { createRedactor, secretsOf } = await import(${JSON.stringify(resolve('dist/server/process/redact-secrets.js'))});
      const logger = createLogger('info', createRedactor(secretsOf(process.env)));
      const err = Object.assign(new Error('connect failed: ' + process.env.DATABASE_URL), { input: process.env.DATABASE_URL });
      logger.error({ err, key: process.env.API_KEY }, 'store said ' + process.env.DATABASE_URL);
      logger.info('a "quoted" api key: ' + process.env.API_KEY);
      logger.flush();`;
    const apiKey = 'key-with-"quote"-0123456789';
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: `postgres://u:${encodeURIComponent(PASSWORD)}@db.example/links?password=${QUERY_PASSWORD}`,
        API_KEY: apiKey,
      },
      encoding: 'utf8',
    });
    const lines = output.trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) JSON.parse(line); // still valid JSON
    expectNoSecret(output);
    expect(output).not.toContain('key-with-');
    expect(output).toContain('db.example/links');
    expect(output).toContain('***');
  });

  it('are found in the user part and every password parameter of the URL, and in API_KEY', () => {
    expect(
      secretsOf({
        DATABASE_URL: `postgresql://u:${encodeURIComponent(PASSWORD)}@h/d?sslpassword=${SSL_PASSWORD}&user=x`,
        API_KEY: 'k'.repeat(16),
      }),
    ).toEqual([encodeURIComponent(PASSWORD), SSL_PASSWORD, 'k'.repeat(16)]);
    expect(secretsOf({ DATABASE_URL: 'sqlite:./data/linklet.db' })).toEqual([]);
    const redact = createRedactor(secretsOf({ DATABASE_URL: `postgres://u:${encodeURIComponent(PASSWORD)}@h/d` }));
    expect(redact(`decoded ${PASSWORD}, encoded ${encodeURIComponent(PASSWORD)}`)).toBe('decoded ***, encoded ***');
    expect(createRedactor([])('untouched')).toBe('untouched');
  });

  it('are blanked by position in a URL, even one the URL parser refuses', () => {
    expect(redactConnectionString('postgres://u:pw@h:5432/d?password=x&sslpassword=y&application_name=a')).toBe(
      'postgres://u:***@h:5432/d?password=***&sslpassword=***&application_name=a',
    );
    expect(redactConnectionString('postgres://u:p w@[bad/d?password=x')).toBe('postgres://u:***@[bad/d?password=***');
  });
});
