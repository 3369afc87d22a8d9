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
 * A link view with the rules-and-limits fields (SPEC "Link rules and limits"). Optional here: a
 * server from before them says nothing, and the screens then show a link without rules or limits.
 */
export type RulesLinkView = LinkView & {
  redirect_rules?: RedirectRuleBody[];
  max_visits?: number | null;
  valid_since?: string | null;
  forward_query?: boolean;
};
