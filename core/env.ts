/** Per-request data an adapter hands the handler, as Hono's `env`: read by the routes as `c.env`. */
export interface RequestEnv {
  /** The id the adapter logs this request under; failures are reported with it. */
  requestId?: string;
  /**
   * Who the client is, as limits count clients (password tries): its address behind the trusted
   * proxies, an IPv6 one by its /64, which one subscriber holds whole (counting addresses would let
   * it rotate through 2^64 of them).
   */
  client?: string;
  /** The client's whole address behind the trusted proxies, for `ip-address` redirect rules; never kept. */
  address?: string;
}

export type FetchHandler = (request: Request, env?: RequestEnv) => Promise<Response>;

/**
 * The one Hono environment every feature's routes run in: the adapter's per-request data, and
 * the creator a shorten request's key names (set by `requireCreator`, read by the create).
 */
/**
 * Who makes a link: an owner (`ownerId`: the link is theirs), the administrator (`{}`), or nobody
 * (`keyless`: no key on an open server; the link is nobody's, and its maker gets a claim token).
 */
export type Creator = { ownerId?: number; keyless?: true };

export type AppEnv = { Bindings: RequestEnv; Variables: { creator: Creator } };
