// What a call to a Linklet server can fail with, for every client of the API: the extension's
// (extension/api-client.ts, server-api.ts) and the web app's (webapp/api.ts). A leaf: it imports
// nothing, so the web app can use it without pulling in an extension module.

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
