import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/process/config.js';
import { logFormatOf, prettyLine } from '../../server/process/log-format.js';
import { startSentence } from '../../server/process/start-line.js';

describe('LOG_FORMAT', () => {
  it('is pretty in a terminal and JSON lines in a pipe or a file, unless set', () => {
    expect(logFormatOf(undefined, { isTTY: true })).toBe('pretty');
    expect(logFormatOf(undefined, { isTTY: false })).toBe('json');
    expect(logFormatOf(undefined, {})).toBe('json');
    expect(logFormatOf('json', { isTTY: true })).toBe('json');
    expect(logFormatOf('pretty', {})).toBe('pretty');
  });

  it('takes pretty, json or nothing, and names the rule otherwise', () => {
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: '' }).logFormat).toBeUndefined();
    expect(() => loadConfig({ LOG_FORMAT: 'text' })).toThrow(/LOG_FORMAT: must be pretty or json/);
  });
});

describe('a pretty line', () => {
  const base = '"time":"2026-11-25T10:04:05.123Z","service":"linklet","pid":42';

  it('reads an access line as method, path, status and time taken', () => {
    const line = `{"level":30,${base},"reqId":"r-1","method":"GET","path":"/promo","status":302,"durationMs":0.41,"msg":"request"}\n`;
    expect(prettyLine(line)).toBe('10:04:05 INFO  GET /promo 302 0.41 ms reqId=r-1\n');
  });

  it('gives time, level and message, then the details, never the process bindings', () => {
    const line = `{"level":40,${base},"host":"0.0.0.0","note":"two words","msg":"open server"}\n`;
    expect(prettyLine(line)).toBe('10:04:05 WARN  open server host=0.0.0.0 note="two words"\n');
  });

  it('puts an error message on the line and its stack below', () => {
    const line = `{"level":50,${base},"err":{"type":"Error","message":"disk full","stack":"Error: disk full\\n    at write"},"msg":"request failed"}\n`;
    expect(prettyLine(line)).toBe(
      '10:04:05 ERROR request failed error="disk full"\n  Error: disk full\n      at write\n',
    );
  });

  it('leaves a line that is not JSON as it is', () => {
    expect(prettyLine('not json\n')).toBe('not json\n');
  });
});

describe('the start sentence', () => {
  it('says where Linklet serves, on what, and how to make a key', () => {
    expect(startSentence(loadConfig({}))).toBe(
      'Linklet is serving http://localhost:8080 on SQLite (./data/linklet.db). Make a key: npm run --silent keys -- create --name NAME',
    );
    const cluster = loadConfig({ DATABASE_URL: 'postgres://u:secret@db/links', WORKERS: '4', PORT: '9000' });
    expect(startSentence(cluster)).toBe(
      'Linklet is serving http://localhost:9000 on PostgreSQL with 4 workers. Make a key: npm run --silent keys -- create --name NAME',
    );
  });
});
