import { invalid } from './errors.js';

/**
 * A request body's text as JSON, whatever its Content-Type said: legacy clients send JSON as
 * form or text, and refusing them would break them for no gain. Empty or malformed text is a
 * 400 saying what to send.
 */
export function parseJsonText(text: string): unknown {
  if (text.trim() === '') {
    throw invalid('The request body is empty; send a JSON object such as {"original_url":"https://example.com"}.');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw invalid(
      'The request body is not valid JSON; send a JSON object such as {"original_url":"https://example.com"}.',
    );
  }
}
