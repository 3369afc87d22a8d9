import type { RedirectCondition, RedirectRule } from '../../rules/redirect-rule.js';
import { conditionHolds } from './match-condition.js';
import type { RuleVisitor } from './rule-visitor.js';

/**
 * The index of the first rule whose conditions all hold for the visitor, or -1: then the link's
 * own target. Conditions are tried in order and stop at the first that fails.
 */
export function chooseRule(rules: readonly RedirectRule[], visitor: RuleVisitor): number {
  // Plain loops: this runs at every redirect of a link with rules, and makes no closure.
  for (let i = 0; i < rules.length; i++) {
    const { conditions } = rules[i] as RedirectRule;
    let holds = conditions.length > 0;
    for (let j = 0; holds && j < conditions.length; j++) {
      holds = conditionHolds(conditions[j] as RedirectCondition, visitor);
    }
    if (holds) return i;
  }
  return -1;
}
