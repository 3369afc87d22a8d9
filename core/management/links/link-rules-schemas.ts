import { isoDate, strictObject } from '../../api-docs/schema-parts.js';
import { MAX_PARAM_LENGTH } from '../../rules/redirect-condition-check.js';
import {
  MAX_REDIRECT_RULES,
  MAX_RULE_CONDITIONS,
  REDIRECT_CONDITION_TYPES,
  RULE_BROWSERS,
  RULE_DEVICES,
} from '../../rules/redirect-rule.js';

const CONDITION_DESCRIPTION = `One condition; all of a rule's must hold. \`device\`: ${RULE_DEVICES.join(', ')}; \`browser\`: ${RULE_BROWSERS.join(', ')}; \`language\`: a tag of the visitor's Accept-Language (\`ko\` holds for \`ko-KR\`); \`query-param\`: the parameter \`key\` has \`value\`; \`any-value-query-param\`: \`key\` is present; \`valueless-query-param\`: \`key\` is present without a value; \`geolocation-country-code\`: ISO 3166 code from the trusted proxy's header or the server's GeoIP database; \`before-date\` / \`after-date\`: an ISO 8601 date-time; \`ip-address\`: an address or CIDR block, matched against the client's address and never stored.`;

const conditionSchema = {
  type: 'object',
  required: ['type'],
  description: CONDITION_DESCRIPTION,
  properties: {
    type: { enum: [...REDIRECT_CONDITION_TYPES] },
    key: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_PARAM_LENGTH,
      description: 'The query parameter (query kinds only).',
    },
    value: { type: 'string', description: 'What is matched (every kind but the two valueless ones).' },
  },
};

const ruleSchema = (strict: boolean) => {
  const properties = {
    target_url: {
      type: 'string',
      format: 'uri',
      description: "Where the rule sends; the same rules as a link's original_url.",
    },
    conditions: { type: 'array', minItems: 1, maxItems: MAX_RULE_CONDITIONS, items: conditionSchema },
  };
  return strict ? strictObject(properties) : { type: 'object', required: ['target_url', 'conditions'], properties };
};

/** A link's rules and limits in every v1 link view (always present, at their defaults when not set). */
export const linkRulesProperties = {
  redirect_rules: {
    type: 'array',
    maxItems: MAX_REDIRECT_RULES,
    description:
      "Its redirect rules in order: the first whose conditions all hold decides; none: the link's own target. [] when none.",
    items: ruleSchema(true),
  },
  max_visits: {
    type: ['integer', 'null'],
    minimum: 1,
    description: 'The clicks it takes before answering 410 (bots are not clicks); null for no limit.',
  },
  valid_since: {
    ...isoDate,
    type: ['string', 'null'],
    description: 'It answers 410 before this moment; null when open from its creation.',
  },
  forward_query: {
    type: 'boolean',
    description: "The visit's query parameters are added to the target's (the visit's win).",
  },
};

/** The rules and limits a v1 create and a PATCH take (`null` removes one in a PATCH). */
export const linkRuleRequests = {
  redirect_rules: {
    type: ['array', 'null'],
    maxItems: MAX_REDIRECT_RULES,
    description: `At most ${MAX_REDIRECT_RULES} rules, each with 1–${MAX_RULE_CONDITIONS} conditions. A PATCH replaces the whole list ([] or null: none).`,
    items: ruleSchema(false),
  },
  max_visits: {
    type: ['integer', 'null'],
    minimum: 1,
    description: 'Stop redirecting after this many clicks; null: no limit.',
  },
  valid_since: {
    type: ['string', 'null'],
    format: 'date-time',
    description:
      'Redirect from this moment on (ISO 8601 with offset); before it the short URL answers 410. null: from now.',
  },
  forward_query: { type: 'boolean', description: "Add the visit's query parameters to the target's (default false)." },
};
