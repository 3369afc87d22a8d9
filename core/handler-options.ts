import type { LogLevel } from './http/error-answer.js';
import type { ImportBudget } from './management/porting/import-budget.js';
import type { PasswordTries } from './passwords/password-tries.js';
import type { LinkRuleOptions } from './redirect/rules/link-rule-options.js';
import type { ClickRecorder } from './rules/clicks.js';
import type { LinkletOptions } from './settings.js';
import type { WebAppFiles } from './site/web-app.js';

/** A failure worth a log line (see `logLevelOf`), as the handler reports it to its adapter. */
export interface FailureReport {
  level: LogLevel;
  request: Request;
  requestId: string | undefined;
}

export interface HandlerOptions extends LinkletOptions {
  /** Told of every failure worth logging: the unexpected ones (500) and store outages (503). */
  onError?: (error: unknown, report: FailureReport) => void;
  /** More for `GET /health` to tell (e.g. where rate limits count, and whether that works). */
  healthDetails?: () => Record<string, unknown>;
  /** The built web app: a browser gets it at `/`, its files under `/assets/`. Absent: `/` is JSON only. */
  webApp?: WebAppFiles;
  /**
   * Where password tries (5 a minute per client and link) are counted, when the adapter shares
   * the count between its instances (the server's Redis); this process's memory when absent.
   */
  passwordTries?: PasswordTries;
  /** Rows an import may create per minute and caller, counted by the adapter (the server's rate limits). */
  importBudget?: ImportBudget;
  /**
   * Told once an import has read its file and is about to answer, with how many rows it read. A
   * large import leaves tens of MB of garbage that an idle process is slow to collect, and a
   * second file sent right after it would pile its own on top: the server collects then.
   */
  onImported?: (rows: number) => void;
  /** Told of every click (see `isClick`) the handler answers, to count it; must not throw or wait. */
  onClick?: ClickRecorder;
  /**
   * When given, each click hands `onClick` the raw strings of its visit too (referrer,
   * User-Agent, the trusted proxy's country header, DNT/GPC); the adapter parses them later.
   */
  visits?: { countryHeader?: string | undefined };
  /** What redirect rules and visit limits read: the User-Agent classifier, country sources, the clicks ledger. */
  linkRules?: LinkRuleOptions;
}
