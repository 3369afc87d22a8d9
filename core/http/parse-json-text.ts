import { invalid } from './errors.js';

/** A body of Linklet's own API, shown in the refusal of one that is not JSON. */
const V1_EXAMPLE = '{"original_url":"https://example.com"}';
// A lone surrogate can only come from an escape (`\ud800`): UTF-8 text cannot carry one.
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
// With the `u` flag a well-formed pair is one code point, so only a lone half matches.
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/**
 * A request body's text as JSON, whatever its Content-Type said: legacy clients send JSON as
 * form or text, and refusing them would break them for no gain. Empty or malformed text is a
 * 400 saying what to send (`example`: a body in the field names of the API asked, so a peer
 * API's client is never told Linklet's names), and so is a string (or key) holding a lone UTF-16
 * surrogate: it is not Unicode text, and stored it would come back as bytes that are not valid UTF-8.
 */
export function parseJsonText(text: string, example = V1_EXAMPLE): unknown {
  const send = `send a JSON object such as ${example}`;
  if (text.trim() === '') throw invalid(`The request body is empty; ${send}.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid(`The request body is not valid JSON; ${send}.`);
  }
  if (SURROGATE_ESCAPE.test(text)) {
    const where = loneSurrogateIn(value);
    if (where !== undefined) {
      throw invalid(
        `${where === '' ? 'The request body' : where} has a lone UTF-16 surrogate (an unpaired \\ud800-\\udfff escape); send valid Unicode text.`,
      );
    }
  }
  return value;
}

/** One value still to look at, and how it was reached (its parent and the key or index there). */
interface Visit {
  value: unknown;
  parent: Visit | undefined;
  step: string | number;
}

// A path longer than this is cut in the message: it names the place without echoing the body.
const MAX_PATH_CHARS = 80;

/**
 * Where in a parsed JSON value a lone surrogate is (`custom_code`, `tags[2]`), if anywhere.
 * Walked with a stack of its own, not by recursion: a body may nest thousands of levels deep
 * (JSON.parse takes that), and recursion would run out of call stack (a 500 instead of a 400).
 * Each visit points to its parent, so the path is spelled out only for the one place reported.
 */
function loneSurrogateIn(root: unknown): string | undefined {
  const pending: Visit[] = [{ value: root, parent: undefined, step: '' }];
  for (let visit = pending.pop(); visit !== undefined; visit = pending.pop()) {
    const { value } = visit;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return pathOf(visit);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    // Pushed last first, so the first item is looked at first, as a reader would.
    if (Array.isArray(value)) {
      for (let at = value.length - 1; at >= 0; at--) pending.push({ value: value[at], parent: visit, step: at });
      continue;
    }
    const entries = Object.entries(value);
    if (entries.some(([key]) => LONE_SURROGATE.test(key))) {
      const where = pathOf(visit);
      return where === '' ? 'A field name' : `A field name in ${where}`;
    }
    for (let at = entries.length - 1; at >= 0; at--) {
      const [key, item] = entries[at] as [string, unknown];
      pending.push({ value: item, parent: visit, step: key });
    }
  }
  return undefined;
}

/** `a.b[2].c` for a visit; '' for the root. */
function pathOf(visit: Visit): string {
  const steps: Array<string | number> = [];
  for (let at: Visit | undefined = visit; at?.parent !== undefined; at = at.parent) steps.push(at.step);
  let path = '';
  for (const step of steps.reverse()) {
    path += typeof step === 'number' ? `[${step}]` : path === '' ? step : `.${step}`;
    if (path.length > MAX_PATH_CHARS) return `${path.slice(0, MAX_PATH_CHARS)}…`;
  }
  return path;
}
