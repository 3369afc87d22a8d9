import type { AgentClassifier } from '../../rules/agent-facts.js';
import { dayOf } from '../../rules/clicks.js';
import { isManagedLinkStore } from '../../store/link-management-store.js';
import type { LinkStore } from '../../store/link-store.js';
import { plainAgentFacts } from './plain-agent-facts.js';
import type { LinkRuleContext } from './ruled-redirect.js';
import { createVisitLedger, type VisitLedger } from './visit-ledger.js';

/** What an adapter hands the handler for redirect rules and limits (`HandlerOptions.linkRules`). */
export interface LinkRuleOptions {
  /** The User-Agent classification visits use (the server's visit parser); a small built-in one when absent. */
  agentOf?: AgentClassifier;
  /**
   * Where clicks of limited links are counted until stored; give the same one to the click
   * counter (its `seal` and `written`), or limits count a written click twice. When absent: one
   * over the store's totals, which suits a handler whose clicks are not written (no `onClick`).
   */
  ledger?: VisitLedger;
  /** `COUNTRY_HEADER`, lower case: a trusted proxy's country of the visitor. */
  countryHeader?: string | undefined;
  /** The country of a client address from a local database (`GEOIP_DB`), when no header gave one. */
  countryOfAddress?: ((address: string) => string | null) | undefined;
}

/** Everything a ruled redirect reads, on the handler and the server's fast path alike. */
export interface LinkRules extends LinkRuleContext {
  countryHeader: string | undefined;
  countryOfAddress: ((address: string) => string | null) | undefined;
}

/**
 * A link's clicks in the store (its total, no days: they are asked from the day after today), or 0
 * from a store that counts none: what a visit limit reads (`createVisitLedger`).
 */
export const storedClicksOf = (store: LinkStore) =>
  isManagedLinkStore(store)
    ? (link: { codeKey: string; createdAt: number }) =>
        store.clicksOf(link.codeKey, link.createdAt, dayOf(Date.now()) + 1).then((clicks) => clicks.total)
    : () => 0;

/** The handler's `LinkRules` from its options (defaults filled in). */
export function linkRulesOf(options: LinkRuleOptions | undefined, store: LinkStore): LinkRules {
  return {
    agentOf: options?.agentOf ?? plainAgentFacts,
    ledger: options?.ledger ?? createVisitLedger(storedClicksOf(store)),
    countryHeader: options?.countryHeader?.toLowerCase(),
    countryOfAddress: options?.countryOfAddress,
  };
}

const ALPHA_2 = /^[A-Za-z]{2}$/;

/** A country header's value (first of a list) as an ISO 3166-1 alpha-2 code, or null (`XX`: unknown). */
export function countryOfHeader(value: string | null | undefined): string | null {
  const code = value?.split(',')[0]?.trim();
  if (code === undefined || !ALPHA_2.test(code)) return null;
  const upper = code.toUpperCase();
  return upper === 'XX' ? null : upper;
}

/** The visitor's country: the header's, else the address's (`GEOIP_DB`), else null. */
export function visitorCountry(
  rules: LinkRules,
  header: string | undefined,
  address: string | undefined,
): string | null {
  const fromHeader = countryOfHeader(header);
  if (fromHeader !== null) return fromHeader;
  return rules.countryOfAddress && address !== undefined ? rules.countryOfAddress(address) : null;
}
