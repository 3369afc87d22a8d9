import type { AgentClassifier, AgentFacts } from '../../rules/agent-facts.js';
import { acceptedLanguages } from './accepted-languages.js';
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
  #agent: AgentFacts | undefined;
  #languages: string[] | undefined;
  #params: URLSearchParams | undefined;
  #country: string | null | undefined;
  #address: Uint8Array | null | undefined;
  constructor(
    readonly request: VisitorRequest,
    readonly now: number,
    private readonly agentOf: AgentClassifier,
  ) {}
  get agent(): AgentFacts {
    this.#agent ??= this.agentOf(this.request.userAgent ?? null);
    return this.#agent;
  }
  get languages(): string[] {
    this.#languages ??= acceptedLanguages(this.request.acceptLanguage);
    return this.#languages;
  }
  get params(): URLSearchParams {
    this.#params ??= new URLSearchParams(this.request.query);
    return this.#params;
  }
  get country(): string | null {
    if (this.#country === undefined) this.#country = this.request.country()?.toUpperCase() ?? null;
    return this.#country;
  }
  get address(): Uint8Array | null {
    if (this.#address === undefined) {
      const text = this.request.address();
      this.#address = (text === undefined ? undefined : addressBytes(text)) ?? null;
    }
    return this.#address;
  }
}
