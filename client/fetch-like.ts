/**
 * What the clients call to send a request: `fetch` itself, or a stand-in (the extension's
 * background routes requests to its own origin straight to the bundled backend; tests answer in
 * process). A leaf, so a module that only needs the type pulls in nothing else.
 */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;
