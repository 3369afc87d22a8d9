/** How log lines are written: JSON lines for machines, or lines a person reads in a terminal. */
export type LogFormat = 'pretty' | 'json';

/**
 * The format in use: `LOG_FORMAT` when set, else pretty when stdout is a terminal (someone is
 * watching) and JSON lines when it is a pipe or a file (journald, Docker, a log shipper).
 */
export function logFormatOf(setting: LogFormat | undefined, stdout: { isTTY?: boolean } = process.stdout): LogFormat {
  return setting ?? (stdout.isTTY ? 'pretty' : 'json');
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
// Said by every line of a process, or by the time and level in front: not repeated on each line.
const IMPLIED = new Set(['level', 'time', 'msg', 'service', 'pid', 'hostname']);

const valueText = (value: unknown): string =>
  typeof value === 'string' && /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);

/**
 * One finished JSON log line as a person reads it: `15:04:05 INFO  message key=value …`. An
 * access line reads `GET /promo 302 0.41 ms`; an error adds its stack on the lines below. A line
 * that is not JSON is left as it is, so nothing is ever lost to formatting.
 */
export function prettyLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const time = typeof entry.time === 'string' ? entry.time.slice(11, 19) : '';
  const level = (LEVELS[entry.level as number] ?? String(entry.level)).padEnd(5);
  if (entry.msg === 'request' && 'status' in entry) {
    const { method, path, status, durationMs, reqId } = entry;
    return `${time} ${level} ${method} ${path} ${status} ${durationMs} ms reqId=${reqId}\n`;
  }
  let text = `${time} ${level} ${entry.msg ?? ''}`;
  let stack = '';
  for (const [key, value] of Object.entries(entry)) {
    if (IMPLIED.has(key) || value === undefined) continue;
    if (key === 'err' && typeof value === 'object' && value !== null) {
      const error = value as { message?: string; stack?: string };
      text += ` error=${valueText(error.message ?? '')}`;
      if (error.stack) stack = `\n  ${error.stack.replace(/\n/g, '\n  ')}`;
      continue;
    }
    text += ` ${key}=${valueText(value)}`;
  }
  return `${text}${stack}\n`;
}
