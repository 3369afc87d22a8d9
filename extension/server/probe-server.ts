import { REQUEST_TIMEOUT_MS } from '../../client/call-linklet.js';
import type { FetchLike } from '../../client/fetch-like.js';

export type ProbeResult = { ok: true; name: string; endpoint: string } | { ok: false; reason: string };

/**
 * The options page's "test connection": `GET {server}/api/v1/shorten` answers the API's own
 * description on a Linklet server, so a wrong address, a different service and a dead server
 * each get their own answer. A server that never answers gets one too, after the deadline.
 */
export async function probeServer(
  fetchLike: FetchLike,
  server: string,
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<ProbeResult> {
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetchLike(`${server}/api/v1/shorten`, { headers: { Accept: 'application/json' }, signal });
  } catch (error) {
    return { ok: false, reason: `unreachable: ${signal.aborted ? noAnswer(timeoutMs) : messageOf(error)}` };
  }
  if (!response.ok) return { ok: false, reason: `HTTP ${response.status}` };
  try {
    const description = (await response.json()) as { name?: unknown; endpoint?: unknown; version?: unknown };
    if (typeof description.endpoint !== 'string' || description.version !== 'v1') {
      return { ok: false, reason: 'not a Linklet API description' };
    }
    return { ok: true, name: String(description.name ?? 'Linklet'), endpoint: description.endpoint };
  } catch {
    if (signal.aborted) return { ok: false, reason: `unreachable: ${noAnswer(timeoutMs)}` };
    return { ok: false, reason: 'not a Linklet API description' };
  }
}

function noAnswer(timeoutMs: number): string {
  return `no answer within ${timeoutMs / 1000} s; check that the server is running`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
