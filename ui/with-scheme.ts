/** Schemes left alone so the API refuses them by name, instead of `https://mailto:…` being made. */
const OTHER_SCHEME = /^(?:[a-z][a-z0-9+.-]*:\/\/|(?:mailto|javascript|data|file|about|blob|tel|chrome|view-source):)/i;

/**
 * A web address as a person types it, with `https://` added when they left it out:
 * `example.com/page` is taken as `https://example.com/page`, as Kutt and Dub do. Only the screens
 * add it; the API keeps its rule that a URL is absolute. An empty field stays empty.
 */
export function withScheme(typed: string): string {
  const text = typed.trim();
  if (text === '' || OTHER_SCHEME.test(text)) return text;
  return text.startsWith('//') ? `https:${text}` : `https://${text}`;
}
