// The runtime messages besides the pages' typed API calls (background-api.ts, `isApiCall`).

/** The background asks the offscreen document to copy (Chromium: a worker has no clipboard). */
export interface CopyMessage {
  type: 'linklet:copy';
  text: string;
}

/** Whether the offscreen document should copy this: a message of another type, or none, is left alone. */
export function isCopyMessage(message: unknown): message is CopyMessage {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { type?: unknown }).type === 'linklet:copy' &&
    typeof (message as { text?: unknown }).text === 'string'
  );
}
