import { invalid } from './errors.js';

const EXAMPLE = 'send a JSON object such as {"original_url":"https://example.com"}';
// A lone surrogate can only come from an escape (`\ud800`): UTF-8 text cannot carry one.
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
// With the `u` flag a well-formed pair is one code point, so only a lone half matches.
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/**
 * A request body's text as JSON, whatever its Content-Type said: legacy clients send JSON as
 * form or text, and refusing them would break them for no gain. Empty or malformed text is a
 * 400 saying what to send, and so is a string (or key) holding a lone UTF-16 surrogate: it is
 * not Unicode text, and stored it would come back as bytes that are not valid UTF-8.
 */
export function parseJsonText(text: string): unknown {
  if (text.trim() === '') throw invalid(`The request body is empty; ${EXAMPLE}.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid(`The request body is not valid JSON; ${EXAMPLE}.`);
  }
  if (SURROGATE_ESCAPE.test(text)) {
    const where = loneSurrogateIn(value, '');
    if (where !== undefined) {
      throw invalid(
        `${where === '' ? 'The request body' : where} has a lone UTF-16 surrogate (an unpaired \\ud800-\\udfff escape); send valid Unicode text.`,
      );
    }
  }
  return value;
}

/** Where in a parsed JSON value a lone surrogate is (`custom_code`, `tags[2]`), if anywhere. */
function loneSurrogateIn(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = loneSurrogateIn(item, `${path}[${index}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const keyPath = path === '' ? key : `${path}.${key}`;
    if (LONE_SURROGATE.test(key)) return path === '' ? 'A field name' : `A field name in ${path}`;
    const found = loneSurrogateIn(item, keyPath);
    if (found !== undefined) return found;
  }
  return undefined;
}
