import type { RedirectCondition } from '../../rules/redirect-rule.js';
import { acceptsLanguage } from './accepted-languages.js';
import { addressInPattern, parseAddressPattern } from './address-pattern.js';
import { isBrowser, isDevice } from './agent-conditions.js';
import type { RuleVisitor } from './rule-visitor.js';

/**
 * Whether one condition holds for a visitor (SPEC "Link rules and limits"). A condition whose
 * value cannot be read (a stored rule edited by hand, say) never holds: a broken rule sends no
 * one anywhere unexpected, everyone gets the link's own target.
 */
export function conditionHolds(condition: RedirectCondition, visitor: RuleVisitor): boolean {
  const value = condition.value ?? '';
  const key = condition.key ?? '';
  switch (condition.type) {
    case 'device':
      return isDevice(visitor.agent, value);
    case 'browser':
      return isBrowser(visitor.agent, value);
    case 'language':
      return acceptsLanguage(visitor.languages, value);
    case 'query-param':
      return visitor.params.getAll(key).includes(value);
    case 'any-value-query-param':
      return visitor.params.has(key);
    case 'valueless-query-param':
      return visitor.params.getAll(key).includes('');
    case 'geolocation-country-code':
      return visitor.country !== null && visitor.country === value.toUpperCase();
    case 'before-date': {
      const at = Date.parse(value);
      return visitor.now < at;
    }
    case 'after-date': {
      const at = Date.parse(value);
      return visitor.now >= at;
    }
    case 'ip-address': {
      const address = visitor.address;
      const pattern = address === null ? undefined : parseAddressPattern(value);
      return address !== null && pattern !== undefined && addressInPattern(address, pattern);
    }
    default:
      return false;
  }
}
