import type { Answer } from '../../http/answer.js';
import { SECURITY_HEADERS } from '../../http/security-headers.js';
import { toYourlsXml, type XmlValue } from './yourls-xml.js';

/** The answer formats YOURLS writes (JSONP is refused, see `formatOf`). */
export type YourlsFormat = 'xml' | 'json' | 'simple';

/** What an action gives back: its HTTP status, its fields, and the text `format=simple` sends. */
export interface YourlsResult {
  status: number;
  body: { readonly [name: string]: XmlValue };
  simple: string;
  headers?: Record<string, string>;
}

/**
 * The format a request asks for, as YOURLS reads `format`: XML when absent, and any value it
 * does not know falls to the plain text of `simple` (YOURLS's `default:` branch). `jsonp` is told
 * apart so it can be refused: a callback name echoed into a script is a script injection.
 */
export function formatOf(params: ReadonlyMap<string, string>): YourlsFormat | 'jsonp' {
  const format = params.get('format') ?? 'xml';
  return format === 'xml' || format === 'json' || format === 'jsonp' ? format : 'simple';
}

// YOURLS's `yourls_content_type_header` always adds its charset.
const CONTENT_TYPES = {
  xml: 'application/xml; charset=utf-8',
  json: 'application/json; charset=utf-8',
  simple: 'text/plain; charset=utf-8',
} as const satisfies Record<YourlsFormat, string>;

/**
 * A result written in the asked format, as `yourls_api_output` writes it. Never kept by a shared
 * cache: what a key sees is its own.
 */
export function yourlsAnswer(format: YourlsFormat, result: YourlsResult): Answer {
  const body =
    format === 'xml' ? toYourlsXml(result.body) : format === 'json' ? JSON.stringify(result.body) : result.simple;
  return {
    status: result.status,
    headers: {
      'Content-Type': CONTENT_TYPES[format],
      'Cache-Control': 'no-store',
      ...result.headers,
      ...SECURITY_HEADERS,
    },
    body,
  };
}
