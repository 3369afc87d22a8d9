import { describe, expect, it } from 'vitest';
import { ApiError } from '../../client/api-errors.js';
import { parseRedirectRules } from '../../core/management/links/link-rules-request.js';
import { MAX_REDIRECT_RULES } from '../../core/rules/redirect-rule.js';
import { catalogMessages } from '../../ui/catalog-messages.js';
import { createI18n } from '../../ui/i18n.js';
import { limitsBody, limitsDraft } from '../../webapp/limits-form-model.js';
import { isoFromLocalInput, localInputValue } from '../../webapp/local-date-time.js';
import type { RulesLinkView } from '../../webapp/rule-shapes.js';
import {
  conditionBody,
  conditionProblem,
  draftsFromRules,
  isAddressOrRange,
  moveRule,
  type RuleDraft,
  rulesBody,
} from '../../webapp/rules-form-model.js';
import { rulesRefusal } from '../../webapp/rules-refusal.js';

// The rules editor's form and the v1 API's body (rules-api.md): what the person typed becomes
// `redirect_rules`, `max_visits`, `valid_since` and `forward_query`, and back.
const { t } = createI18n(catalogMessages(['en']));
const draft = (target: string, ...conditions: RuleDraft['conditions']): RuleDraft => ({ target, conditions });

describe('rules: form ↔ API body', () => {
  it('sends each rule with its address (scheme added) and conditions as the API names them', () => {
    const result = rulesBody([
      draft('example.com/android', { type: 'device', key: '', value: 'android' }),
      draft(
        'https://example.com/mail',
        { type: 'query-param', key: ' utm_source ', value: 'mail' },
        { type: 'any-value-query-param', key: 'ref', value: 'ignored' },
        { type: 'geolocation-country-code', key: 'ignored', value: 'kr' },
      ),
    ]);
    expect(result).toEqual({
      rules: [
        { target_url: 'https://example.com/android', conditions: [{ type: 'device', value: 'android' }] },
        {
          target_url: 'https://example.com/mail',
          conditions: [
            { type: 'query-param', key: 'utm_source', value: 'mail' },
            { type: 'any-value-query-param', key: 'ref' },
            { type: 'geolocation-country-code', value: 'KR' },
          ],
        },
      ],
    });
  });

  it("reads the API's rules back as drafts, a date in the browser's zone, and sends the same again", () => {
    const rules = [
      {
        target_url: 'https://example.com/late',
        conditions: [
          { type: 'after-date' as const, value: isoFromLocalInput('2026-12-01T09:30') as string },
          { type: 'valueless-query-param' as const, key: 'beta' },
        ],
      },
    ];
    const drafts = draftsFromRules(rules);
    expect(drafts[0]?.conditions[0]?.value).toBe('2026-12-01T09:30');
    expect(rulesBody(drafts)).toEqual({ rules });
    expect(draftsFromRules(undefined)).toEqual([]);
  });

  it('names the first thing to fix, by its rule and condition, before anything is sent', () => {
    const android = { type: 'device' as const, key: '', value: 'android' };
    const cases: Array<[RuleDraft, number | undefined, string]> = [
      [draft('', android), undefined, 'ruleTargetInvalid'],
      [draft('ftp://example.com/file', android), undefined, 'ruleTargetInvalid'],
      [draft('https://example.com/x'), undefined, 'ruleNeedsCondition'],
      [
        draft('https://example.com/x', android, { type: 'query-param', key: '  ', value: 'x' }),
        1,
        'ruleQueryKeyInvalid',
      ],
      [
        draft('https://example.com/x', { type: 'query-param', key: 'utm_source', value: ' ' }),
        0,
        'ruleQueryValueMissing',
      ],
      [draft('https://example.com/x', { type: 'language', key: '', value: 'Korean' }), 0, 'ruleLanguageInvalid'],
      [
        draft('https://example.com/x', { type: 'geolocation-country-code', key: '', value: 'KOR' }),
        0,
        'ruleCountryInvalid',
      ],
      [
        draft('https://example.com/x', { type: 'before-date', key: '', value: '2026-02-31T00:00' }),
        0,
        'ruleDateInvalid',
      ],
      [draft('https://example.com/x', { type: 'ip-address', key: '', value: '10.0.0.0/33' }), 0, 'ruleIpInvalid'],
    ];
    for (const [bad, condition, text] of cases) {
      const result = rulesBody([draft('https://example.com/ok', android), bad]);
      expect(result, text).toEqual({ problem: { rule: 1, ...(condition !== undefined && { condition }), text } });
    }
    const many = Array.from({ length: MAX_REDIRECT_RULES + 1 }, () => draft('https://example.com/', android));
    expect(rulesBody(many)).toMatchObject({ problem: { text: 'ruleTooMany' } });
    expect(rulesBody(many.slice(1))).toHaveProperty('rules');
  });

  it("refuses a query parameter's name exactly when the server would", () => {
    // Names a visit can carry percent-encoded (`utm%20source`, `a%3Db`) are matched decoded, so the
    // server takes them; the form once refused spaces, ?, & and = and so could not set such a rule.
    const urlRules = { maxLength: 2048, ownHosts: ['sho.rt'], blockPrivateTargets: true };
    const serverTakes = (condition: RuleDraft['conditions'][number]) => {
      try {
        parseRedirectRules([{ target_url: 'https://example.com/', conditions: [conditionBody(condition)] }], urlRules);
        return true;
      } catch {
        return false;
      }
    };
    const names: Array<[string, boolean]> = [
      ['utm_source', true],
      ['utm source', true],
      ['a=b', true],
      ['q&r', true],
      ['?ref', true],
      ['#tag', true],
      ['이름', true],
      [` ${'k'.repeat(200)} `, true],
      [' ', false],
      ['', false],
      ['k'.repeat(201), false],
    ];
    for (const [key, taken] of names) {
      for (const type of ['query-param', 'any-value-query-param', 'valueless-query-param'] as const) {
        const condition = { type, key, value: 'x' };
        expect(conditionProblem(condition) === undefined, `${type} ${key}`).toBe(taken);
        expect(serverTakes(condition), `${type} ${key}`).toBe(taken);
      }
    }
  });

  it('takes IPv4 and IPv6 addresses and ranges, and nothing else', () => {
    for (const ok of ['203.0.113.7', '10.0.0.0/8', '2001:db8::1', '2001:db8::/32', '0.0.0.0/0']) {
      expect(isAddressOrRange(ok), ok).toBe(true);
    }
    for (const bad of ['', '256.1.1.1', '10.0.0/8', '10.0.0.0/', 'example.com', '2001:db8::/129', '1.2.3.4/8/8']) {
      expect(isAddressOrRange(bad), bad).toBe(false);
    }
  });

  it('moves a rule up or down, never past either end (the order decides which rule wins)', () => {
    expect(moveRule(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveRule(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveRule(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveRule(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });
});

describe('limits: form ↔ API body', () => {
  const link = (fields: Partial<RulesLinkView>) => ({ clicks: 0, ...fields }) as RulesLinkView;

  it('sends empty fields as no limit and no start, and a ticked box as forwarding', () => {
    expect(limitsBody({ maxVisits: ' ', validSince: '', forwardQuery: true })).toEqual({
      body: { max_visits: null, valid_since: null, forward_query: true },
    });
    expect(limitsBody({ maxVisits: '100', validSince: '2026-12-01T10:00', forwardQuery: false })).toEqual({
      body: { max_visits: 100, valid_since: isoFromLocalInput('2026-12-01T10:00'), forward_query: false },
    });
  });

  it('asks for a whole number of visits from 1 and a real start', () => {
    for (const bad of ['0', '-3', '1.5', 'ten', '99999999999999999999']) {
      expect(limitsBody({ maxVisits: bad, validSince: '', forwardQuery: false }), bad).toEqual({
        problem: { field: 'maxVisits', text: 'limitVisitsInvalid' },
      });
    }
    expect(limitsBody({ maxVisits: '', validSince: 'soon', forwardQuery: false })).toEqual({
      problem: { field: 'validSince', text: 'limitStartInvalid' },
    });
  });

  it("shows a link's limits in the form: the start in the browser's zone, none as empty", () => {
    const since = isoFromLocalInput('2027-01-05T08:15') as string;
    expect(limitsDraft(link({ max_visits: 12, valid_since: since, forward_query: true }))).toEqual({
      maxVisits: '12',
      validSince: '2027-01-05T08:15',
      forwardQuery: true,
    });
    expect(limitsDraft(link({}))).toEqual({ maxVisits: '', validSince: '', forwardQuery: false });
    expect(localInputValue('not a date')).toBe('');
  });
});

describe("the server's refusals, by the field they name", () => {
  it("puts a rule's address problem by that rule, in the words the link's own address would get", () => {
    const refused = rulesRefusal(t, new ApiError(400, 'redirect_rules[2].target_url must use http or https, not ftp.'));
    expect(refused.place).toEqual({ rule: 2 });
    expect(refused.text).toBe(t('errUrlScheme'));
    // As the server names a condition (core/management/links/link-rules-request.ts): by its field.
    const value = rulesRefusal(
      t,
      new ApiError(400, 'redirect_rules[0].conditions[1].value must be a two-letter ISO 3166 country code such as KR.'),
    );
    expect(value).toEqual({ place: { rule: 0, condition: 1, field: 'value' }, text: t('ruleRefused') });
    const key = rulesRefusal(
      t,
      new ApiError(400, "redirect_rules[3].conditions[0].key must be the query parameter's name."),
    );
    expect(key.place).toEqual({ rule: 3, condition: 0, field: 'key' });
    const loop = rulesRefusal(
      t,
      new ApiError(400, 'redirect_rules[1].target_url must not point at this service (sho.rt); that link would loop.'),
    );
    expect(loop).toEqual({ place: { rule: 1 }, text: t('errUrlLoop') });
  });

  it("puts the limits' problems by their fields, and anything else under the form", () => {
    expect(rulesRefusal(t, new ApiError(400, 'max_visits must be an integer of at least 1, or null.')).place).toBe(
      'maxVisits',
    );
    expect(rulesRefusal(t, new ApiError(400, 'valid_since must be an ISO 8601 date-time, or null.')).place).toBe(
      'validSince',
    );
    expect(rulesRefusal(t, new ApiError(400, 'redirect_rules may hold at most 20 rules.')).place).toBe('form');
    expect(rulesRefusal(t, new ApiError(500, 'boom'))).toEqual({ place: 'form', text: t('errServer') });
  });
});
