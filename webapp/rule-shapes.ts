import type { LinkView } from '../core/management/links/link-view.js';
import type { RedirectConditionType } from '../core/rules/redirect-rule.js';

/** One condition of a rule as the v1 API carries it (`key` for the query kinds, `value` when it has one). */
export interface RuleConditionBody {
  type: RedirectConditionType;
  key?: string;
  value?: string;
}

/** One redirect rule as the v1 API carries it: where a visit goes when all its conditions hold. */
export interface RedirectRuleBody {
  target_url: string;
  conditions: RuleConditionBody[];
}

/**
 * A link view with the rules-and-limits fields (SPEC "Link rules and limits"), as the web app
 * reads them: a condition's `type` as any text (the server's view says no more), each read by
 * `draftsFromRules`; the fields optional, so a view without them reads as no rules and no limits.
 */
export type RulesLinkView = Omit<LinkView, 'redirect_rules' | 'max_visits' | 'valid_since' | 'forward_query'> & {
  redirect_rules?: ReadonlyArray<{
    target_url: string;
    conditions: ReadonlyArray<{ type: string; key?: string; value?: string }>;
  }>;
  max_visits?: number | null;
  valid_since?: string | null;
  forward_query?: boolean;
};
