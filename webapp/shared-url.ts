/** An http(s) URL inside free text: up to the first space, quote or angle bracket. */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`]+/i;
/** What ends a sentence rather than the URL in it: "see https://example.com/a." */
const TRAILING_PUNCTUATION = new Set([...'.,;:!?)]}»”’']);

/** The URL without the punctuation after it; a `)` closing a `(` of the URL's own stays. */
function trimmed(found: string): string {
  let url = found;
  while (url.length > 0 && TRAILING_PUNCTUATION.has(url.at(-1) as string)) {
    if (url.endsWith(')') && url.split('(').length >= url.split(')').length) break;
    url = url.slice(0, -1);
  }
  return url;
}

function httpUrl(candidate: string): string | undefined {
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? candidate : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The URL another app shared with the web app (its manifest's `share_target`, a GET with `url`,
 * `text` and `title`). Android apps often give the URL in `text`, with words around it ("Look
 * https://example.com/a"), and `url` empty, so: `url` when it is an http(s) URL, else the first
 * http(s) URL in `text`, without the sentence's closing punctuation. Undefined: nothing to shorten.
 */
export function sharedUrl(params: URLSearchParams): string | undefined {
  const given = params.get('url')?.trim();
  if (given) {
    const url = httpUrl(given);
    if (url !== undefined) return url;
  }
  const found = URL_IN_TEXT.exec(params.get('text') ?? '')?.[0];
  return found === undefined ? undefined : httpUrl(trimmed(found));
}

/** Whether the page was opened by a share (so the query is the share's, to be taken and removed). */
export function isShare(params: URLSearchParams): boolean {
  return params.has('url') || params.has('text') || params.has('title');
}
