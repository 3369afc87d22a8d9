import { formatIsoDate } from '../../rules/dates.js';
import type { RedirectRule } from '../../rules/redirect-rule.js';
import type { Link } from '../../store/link-store.js';

/** A redirect rule as the v1 API shows it (snake_case, conditions as given). */
export interface RedirectRuleView {
  target_url: string;
  conditions: Array<{ type: string; key?: string; value?: string }>;
}

/** A link's rules and limits as the v1 API shows them, each at its default when not set. */
export interface LinkRulesView {
  redirect_rules: RedirectRuleView[];
  max_visits: number | null;
  valid_since: string | null;
  forward_query: boolean;
}

/** The v1 view of a rule list. */
export const toRuleViews = (rules: readonly RedirectRule[] | undefined): RedirectRuleView[] =>
  (rules ?? []).map(({ targetUrl, conditions }) => ({
    target_url: targetUrl,
    conditions: conditions.map((condition) => ({ ...condition })),
  }));

/** A link's rules and limits as every v1 link view shows them. */
export function toLinkRulesView(link: Link): LinkRulesView {
  return {
    redirect_rules: toRuleViews(link.redirectRules),
    max_visits: link.maxVisits ?? null,
    valid_since: link.validSince === undefined ? null : formatIsoDate(link.validSince),
    forward_query: link.forwardQuery === true,
  };
}

/**
 * A v1 create's answer with the rules and limits the link was made with (only those set); a
 * create without any answers exactly as before.
 */
export function withRuleFields<E extends { data: object }>(envelope: E, link: Link): E {
  if (link.redirectRules !== undefined)
    Object.assign(envelope.data, { redirect_rules: toRuleViews(link.redirectRules) });
  if (link.maxVisits !== undefined) Object.assign(envelope.data, { max_visits: link.maxVisits });
  if (link.validSince !== undefined) Object.assign(envelope.data, { valid_since: formatIsoDate(link.validSince) });
  if (link.forwardQuery === true) Object.assign(envelope.data, { forward_query: true });
  return envelope;
}
