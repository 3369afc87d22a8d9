import type { RedirectRule } from '../../rules/redirect-rule.js';
import { conditionHolds } from './match-condition.js';
import type { RuleVisitor } from './rule-visitor.js';

/**
 * The first rule whose conditions all hold for the visitor, or undefined: then the link's own
 * target. Conditions are tried in order and stop at the first that fails.
 */
export function chooseRule(rules: readonly RedirectRule[], visitor: RuleVisitor): RedirectRule | undefined {
  return rules.find((rule) => rule.conditions.length > 0 && rule.conditions.every((c) => conditionHolds(c, visitor)));
}
