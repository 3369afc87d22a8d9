/** Per-request data an adapter hands the handler, as Hono's `env`: read by the routes as `c.env`. */
export interface RequestEnv {
  /** The id the adapter logs this request under; failures are reported with it. */
  requestId?: string;
  /** The client's address as the adapter trusts it: password tries are counted per client. */
  clientAddress?: string;
}

export type FetchHandler = (request: Request, env?: RequestEnv) => Promise<Response>;

/**
 * The one Hono environment every feature's routes run in: the adapter's per-request data, and
 * the creator a shorten request's key names (set by `requireCreator`, read by the create).
 */
export type AppEnv = { Bindings: RequestEnv; Variables: { ownerId: number | undefined } };
