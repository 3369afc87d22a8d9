/** A value YOURLS's XML writer takes: text, a number, nothing, or nested elements. */
export type XmlValue = string | number | null | undefined | { readonly [name: string]: XmlValue };

/**
 * Whether XML 1.0 can carry this code point at all (its `Char` production): a document with any
 * other (a control character, a lone surrogate) would not parse, whatever the client. YOURLS's
 * writer (spatie/array-to-xml) likewise drops control characters.
 */
function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    cp >= 0x10000
  );
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };

/** Text as element content: escaped, and stripped of what XML cannot hold. */
function escapeText(text: string): string {
  let kept = '';
  for (const ch of text) if (isXmlChar(ch.codePointAt(0) ?? 0)) kept += ch;
  return kept.replace(/[&<>\r]/g, (ch) => ESCAPES[ch] ?? ch);
}

function element(name: string, value: XmlValue): string {
  if (value === null || value === undefined || value === '') return `<${name}/>`;
  if (typeof value === 'object') return `<${name}>${children(value)}</${name}>`;
  return `<${name}>${escapeText(String(value))}</${name}>`;
}

function children(value: { readonly [name: string]: XmlValue }): string {
  return Object.entries(value)
    .map(([name, item]) => element(name, item))
    .join('');
}

/**
 * What YOURLS's `yourls_xml_encode` writes for an answer: the declaration, a `<root>` element
 * (spatie/array-to-xml's default, which YOURLS uses since it dropped its own writer) and one
 * element per member, nested for nested members. Element names are the answers' own fixed field
 * names, never a client's words, so only text needs escaping.
 */
export function toYourlsXml(value: { readonly [name: string]: XmlValue }): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<root>${children(value)}</root>\n`;
}
