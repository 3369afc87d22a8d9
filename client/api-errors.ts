// What a call to a Linklet server can fail with, for every client of the API (client/call-linklet.ts
// and its callers in the extension and the web app). A leaf: it imports nothing.

/** The backend answered with an error envelope: `message` is the API's own, shown as is. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** A server-side fault or overload: worth retrying later, unlike a refused input. */
  get retryable(): boolean {
    return this.status >= 500 || this.status === 429;
  }
}

/** The backend could not be reached at all (offline, refused, DNS, CORS) or did not answer in time. */
export class UnreachableError extends Error {
  constructor(base: string, cause: unknown) {
    super(`Could not reach ${base}: ${reasonOf(cause)}`, { cause });
    this.name = 'UnreachableError';
  }
}

function reasonOf(cause: unknown): string {
  if (cause instanceof DOMException && cause.name === 'TimeoutError') {
    return 'it did not answer in time; check that the server is running, then try again.';
  }
  return cause instanceof Error ? cause.message : String(cause);
}

/**
 * The answer was larger than the caller allows (see `readBoundedText`): no Linklet server sends
 * that much, so the address is probably not one. Its own class, so a caller can say which bound.
 */
export class AnswerTooLargeError extends Error {
  constructor(
    readonly maxBytes: number,
    how: string,
  ) {
    super(
      `The server's answer was refused: it is larger than ${maxBytes} bytes (${how}), more than a Linklet server sends. Check the server address in the options.`,
    );
    this.name = 'AnswerTooLargeError';
  }
}
