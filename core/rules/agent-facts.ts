/**
 * What a User-Agent names: browser, OS and device type as bowser names them ('Chrome',
 * 'Microsoft Edge', 'Android', 'macOS', 'Chrome OS'; 'mobile', 'tablet', 'desktop'), and whether
 * it is a bot. The server's visit parser makes them (server/clicks/visit-parser.ts); redirect
 * rules read the same ones, so a rule and a visit's statistics never disagree about a visitor.
 */
export interface AgentFacts {
  browser: string | null;
  os: string | null;
  device: string | null;
  bot: boolean;
}

/** Classifies a User-Agent (null or '' when the request sent none). */
export type AgentClassifier = (userAgent: string | null) => AgentFacts;
