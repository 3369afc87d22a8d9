import { AnswerTooLargeError, ApiError } from './api-errors.js';
import { readBoundedText } from './bounded-body.js';

/** The body every Linklet answer has: `status` 'success' with `data`, or 'error' with `message`. */
export interface Envelope {
  status?: unknown;
  message?: unknown;
  data?: unknown;
}

/** Longer server messages are cut: every real Linklet message is far shorter. */
export const MAX_MESSAGE_LENGTH = 500;

/**
 * The JSON body; a body that is not JSON gets a message instead, so the caller reports it like
 * any refusal. Rejects only when the deadline passed (`signal`), or with `AnswerTooLargeError`
 * when the body is over `maxBytes` (when given).
 */
export async function readEnvelope(response: Response, signal: AbortSignal, maxBytes?: number): Promise<Envelope> {
  try {
    const json: unknown =
      maxBytes === undefined ? await response.json() : JSON.parse(await readBoundedText(response, maxBytes));
    return typeof json === 'object' && json !== null ? (json as Envelope) : {};
  } catch (error) {
    if (signal.aborted || error instanceof AnswerTooLargeError) throw error;
    return { message: `The server answered ${response.status} without a Linklet response; is this a Linklet server?` };
  }
}

/**
 * The server's own message of a refusal as an `ApiError`, cut short: a hostile server cannot
 * flood a page or the history with it.
 */
export function refusalOf(status: number, envelope: Envelope): ApiError {
  const message = typeof envelope.message === 'string' ? envelope.message.slice(0, MAX_MESSAGE_LENGTH) : undefined;
  return new ApiError(status, message || `The server answered ${status}.`);
}
