/** What a call answered: status, parsed JSON body (undefined when it was not JSON) and headers. */
export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON of any release; each check reads the fields it needs
  body: any;
  headers: Headers;
}

/**
 * One API call to a server of any release: the update tests talk to old and new servers alike
 * over HTTP only, so they see what a client of that release saw.
 */
export async function call(
  origin: string,
  method: string,
  path: string,
  options: { key?: string; body?: unknown } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.key !== undefined) headers['X-API-Key'] = options.key;
  const response = await fetch(`${origin}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    redirect: 'manual',
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body, headers: response.headers };
}

/** The path of a code's short URL (Hangul percent-encoded, as a browser sends it). */
export const shortPath = (code: string) => `/${encodeURIComponent(code)}`;

/** The code a `short_url` names, whichever release wrote it (with or without a trailing `/`). */
export function codeOf(shortUrl: string): string {
  return decodeURIComponent(new URL(shortUrl).pathname.replace(/^\/|\/$/g, ''));
}
