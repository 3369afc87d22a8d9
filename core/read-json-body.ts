import { invalid } from './errors.js';

/**
 * Reads a request body as JSON whatever its Content-Type says: legacy clients send JSON as
 * form or text, and refusing them would break them for no gain.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const text = await request.text();
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
