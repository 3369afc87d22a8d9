import { AnswerTooLargeError } from './api-errors.js';

/**
 * The body as text, refusing it once it passes `maxBytes`: from its `Content-Length` before
 * reading, else as it streams in, so a server that sends gigabytes (or never stops) costs at most
 * `maxBytes` of memory. `response.json()` would hold all of it first.
 */
export async function readBoundedText(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    release(response.body?.cancel());
    throw new AnswerTooLargeError(maxBytes, `it announces ${declared} bytes`);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    received += value.byteLength;
    if (received > maxBytes) {
      release(reader.cancel());
      throw new AnswerTooLargeError(maxBytes, 'it sent more');
    }
    text += decoder.decode(value, { stream: true });
  }
}

/**
 * Lets the connection go without waiting: a server that keeps sending may never let the cancel
 * settle, and the refusal must not wait on it.
 */
function release(cancelled: Promise<void> | undefined): void {
  cancelled?.catch(() => undefined);
}
