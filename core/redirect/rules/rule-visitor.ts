import type { AgentClassifier, AgentFacts } from '../../rules/agent-facts.js';
import { acceptedLanguagesOf } from './accepted-languages.js';
import { addressBytes } from './address-pattern.js';

/** What a redirect's request says of its visitor, as each adapter reads it (raw strings, nothing parsed). */
export interface VisitorRequest {
  userAgent: string | undefined;
  acceptLanguage: string | undefined;
  /** The request target's query without `?` (`''` for none). */
  query: string;
  /** The visitor's country: the trusted proxy's header, else `GEOIP_DB`; asked only when a condition needs it. */
  country: () => string | null;
  /** The client's address (as `TRUSTED_PROXIES` says); asked only when a condition needs it, never kept. */
  address: () => string | undefined;
}

/**
 * A visitor as rules read it: each fact is worked out once, on the first condition that needs
 * it, so a rule on the query string never parses the User-Agent, and nothing is kept after the
 * redirect (the address least of all).
 */
export class RuleVisitor {
  // Plain fields (not `#private`): one visitor per ruled redirect, read by every condition.
  private agentFacts: AgentFacts | undefined = undefined;
  private acceptedTags: readonly string[] | undefined = undefined;
  private queryParams: URLSearchParams | undefined = undefined;
  private countryCode: string | null | undefined = undefined;
  private addressBytes: Uint8Array | null | undefined = undefined;
  constructor(
    readonly request: VisitorRequest,
    readonly now: number,
    private readonly agentOf: AgentClassifier,
  ) {}
  get agent(): AgentFacts {
    this.agentFacts ??= this.agentOf(this.request.userAgent ?? null);
    return this.agentFacts;
  }
  get languages(): readonly string[] {
    this.acceptedTags ??= acceptedLanguagesOf(this.request.acceptLanguage);
    return this.acceptedTags;
  }
  get params(): URLSearchParams {
    this.queryParams ??= new URLSearchParams(this.request.query);
    return this.queryParams;
  }
  get country(): string | null {
    if (this.countryCode === undefined) this.countryCode = this.request.country()?.toUpperCase() ?? null;
    return this.countryCode;
  }
  get address(): Uint8Array | null {
    if (this.addressBytes === undefined) {
      const text = this.request.address();
      this.addressBytes = (text === undefined ? undefined : addressBytes(text)) ?? null;
    }
    return this.addressBytes;
  }
}
