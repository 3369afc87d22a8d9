import type { FetchLike } from './api-client.js';

export type ProbeResult = { ok: true; name: string; endpoint: string } | { ok: false; reason: string };

/**
 * The options page's "test connection": `GET {server}/api/v1/shorten` answers the API's own
 * description on a Linklet server, so a wrong address, a different service and a dead server
 * each get their own answer.
 */
export async function probeServer(fetchLike: FetchLike, server: string): Promise<ProbeResult> {
  let response: Response;
  try {
    response = await fetchLike(`${server}/api/v1/shorten`, { headers: { Accept: 'application/json' } });
  } catch (error) {
    return { ok: false, reason: `unreachable: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!response.ok) return { ok: false, reason: `HTTP ${response.status}` };
  try {
    const description = (await response.json()) as { name?: unknown; endpoint?: unknown; version?: unknown };
    if (typeof description.endpoint !== 'string' || description.version !== 'v1') {
      return { ok: false, reason: 'not a Linklet API description' };
    }
    return { ok: true, name: String(description.name ?? 'Linklet'), endpoint: description.endpoint };
  } catch {
    return { ok: false, reason: 'not a Linklet API description' };
  }
}
