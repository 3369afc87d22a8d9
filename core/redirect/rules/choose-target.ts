import type { RedirectCondition, RedirectRule } from '../../rules/redirect-rule.js';
import { conditionHolds } from './match-condition.js';
import type { RuleVisitor } from './rule-visitor.js';

/**
 * The index of the first rule whose conditions all hold for the visitor, or -1: then the link's
 * own target. Conditions are tried in order and stop at the first that fails.
 */
export function chooseRule(rules: readonly RedirectRule[], visitor: RuleVisitor): number {
  return rules.findIndex(
    (rule) => rule.conditions.length > 0 && rule.conditions.every((c) => conditionHolds(c, visitor)),
  );
}
