import Bowser from 'bowser';
import { isbot } from 'isbot';
import type { RawVisit, VisitRow } from '../../core/management/visits/visits.js';
import type { AgentFacts } from '../../core/rules/agent-facts.js';

/** The User-Agent is kept to this many characters. */
export const USER_AGENT_KEPT = 256;

export type { AgentFacts } from '../../core/rules/agent-facts.js';

const NO_AGENT: AgentFacts = Object.freeze({ browser: null, os: null, device: null, bot: false });

/**
 * A User-Agent's facts (bowser for browser, OS and device type; isbot for bots), with the most
 * recent ones kept in a small LRU: most clicks come from a few hundred User-Agents, so the
 * parsers run once per new one, in the batch writer.
 */
export function createAgentParser(maxEntries = 2000) {
  const recent = new Map<string, AgentFacts>();
  return (userAgent: string | null): AgentFacts => {
    if (userAgent === null || userAgent === '') return NO_AGENT;
    const known = recent.get(userAgent);
    if (known !== undefined) {
      recent.delete(userAgent); // most recently used last
      recent.set(userAgent, known);
      return known;
    }
    let facts: AgentFacts;
    try {
      const parsed = Bowser.parse(userAgent);
      const bot = isbot(userAgent) || parsed.platform?.type === 'bot';
      facts = {
        browser: parsed.browser?.name || null,
        os: parsed.os?.name || null,
        device: bot ? null : parsed.platform?.type || (parsed.os?.name ? 'desktop' : null),
        bot,
      };
    } catch {
      facts = { ...NO_AGENT, bot: isbot(userAgent) };
    }
    recent.set(userAgent, facts);
    if (recent.size > maxEntries) recent.delete(recent.keys().next().value as string);
    return facts;
  };
}

/** The referrer's host alone (lower case), `direct` when there is none or it is not a URL. */
export function referrerHost(referer: string | undefined): string {
  if (referer === undefined || referer === '') return 'direct';
  try {
    const host = new URL(referer).hostname.toLowerCase();
    return host === '' ? 'direct' : host.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return 'direct';
  }
}

/**
 * `referrerHost` behind a small cache: most clicks come from a few referrers, and a URL parse
 * costs more than the rest of a visit's parsing. Emptied when full (a flood of distinct
 * referrers costs one parse each, as without it).
 */
export function createReferrerHosts(maxEntries = 2000) {
  const known = new Map<string, string>();
  return (referer: string | undefined): string => {
    if (referer === undefined) return 'direct';
    let host = known.get(referer);
    if (host === undefined) {
      host = referrerHost(referer);
      if (known.size >= maxEntries) known.clear();
      known.set(referer, host);
    }
    return host;
  };
}

const ALPHA_2 = /^[A-Za-z]{2}$/;

/** A country header's value as ISO 3166-1 alpha-2, or null (Cloudflare's `XX` and `T1` included). */
export function countryCode(value: string | string[] | undefined | null): string | null {
  const text = Array.isArray(value) ? value[0] : value;
  const code = text?.trim();
  if (code === undefined || !ALPHA_2.test(code)) return null;
  const upper = code.toUpperCase();
  return upper === 'XX' ? null : upper;
}

export interface VisitParserOptions {
  /** The country of a client address from a local database (`GEOIP_DB`); never a remote service. */
  countryOfAddress?: (peer: string | undefined, forwardedFor: string | string[] | undefined) => string | null;
}

/**
 * The parsers a visit's strings go through, each behind its cache: the click counter asks them
 * once per distinct User-Agent, referrer and country value of a beat, not once per click.
 */
export interface VisitFacts {
  agentOf: (userAgent: string | null) => AgentFacts;
  hostOf: (referer: string | undefined) => string;
  countryOfAddress: VisitParserOptions['countryOfAddress'];
}

/**
 * Makes a stored visit of the raw strings a redirect handed over. A visit that asked not to be
 * tracked (DNT, GPC) keeps its time and whether it was a bot (a bot is no click); the address,
 * used for the country lookup only, is never part of what is returned. Its `facts` are the same
 * parsers, for the click counter, which parses each distinct value of a beat once.
 */
export function createVisitParser(options: VisitParserOptions = {}) {
  const facts: VisitFacts = {
    agentOf: createAgentParser(),
    hostOf: createReferrerHosts(),
    countryOfAddress: options.countryOfAddress,
  };
  const { agentOf, hostOf } = facts;
  const parse = (codeKey: string, atMs: number, raw: RawVisit): VisitRow => {
    const userAgent = raw.userAgent === undefined ? null : raw.userAgent.slice(0, USER_AGENT_KEPT);
    const agent = agentOf(userAgent);
    const at = Math.floor(atMs / 1000);
    if (raw.private) {
      return {
        codeKey,
        at,
        referrer: null,
        country: null,
        userAgent: null,
        browser: null,
        os: null,
        device: null,
        bot: agent.bot,
      };
    }
    let country = countryCode(raw.country);
    if (country === null && options.countryOfAddress && raw.peer !== undefined)
      country = options.countryOfAddress(raw.peer, raw.forwardedFor);
    return {
      codeKey,
      at,
      referrer: hostOf(raw.referer),
      country,
      userAgent,
      browser: agent.browser,
      os: agent.os,
      device: agent.device,
      bot: agent.bot,
    };
  };
  return Object.assign(parse, { facts });
}

export type VisitParser = ReturnType<typeof createVisitParser>;
