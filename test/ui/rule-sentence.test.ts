import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogMessages } from '../../ui/catalog-messages.js';
import { createI18n } from '../../ui/i18n.js';
import { isoFromLocalInput } from '../../webapp/local-date-time.js';
import { ruleSentence } from '../../webapp/rule-sentence.js';
import type { RedirectRuleBody, RuleConditionBody } from '../../webapp/rule-shapes.js';

// SPEC "Link rules and limits": the web app's rules editor reads each rule back as a sentence a
// person understands without the docs, in English and in Korean with the right particles.
const en = createI18n(catalogMessages(['en']));
const ko = createI18n(catalogMessages(['ko']));
const TARGET = 'https://example.com/next';
const rule = (...conditions: RuleConditionBody[]): RedirectRuleBody => ({ target_url: TARGET, conditions });
const say = (i18n: typeof en, body: RedirectRuleBody) => ruleSentence(i18n.t, i18n.language(), body);

describe('a rule as a sentence', () => {
  it('names the device as who goes', () => {
    const android = rule({ type: 'device', value: 'android' });
    expect(say(en, android)).toBe(`Android phones go to ${TARGET}`);
    expect(say(ko, android)).toBe(`안드로이드 휴대폰을 쓰는 방문자는 ${TARGET} 주소로 이동합니다`);
    expect(say(en, rule({ type: 'device', value: 'ios' }))).toBe(`iPhones and iPads go to ${TARGET}`);
    expect(say(ko, rule({ type: 'device', value: 'macos' }))).toBe(`Mac을 쓰는 방문자는 ${TARGET} 주소로 이동합니다`);
  });

  it("says a language by its name in the page's language", () => {
    const korean = rule({ type: 'language', value: 'ko' });
    expect(say(en, korean)).toBe(`Visitors whose language is Korean go to ${TARGET}`);
    expect(say(ko, korean)).toBe(`언어가 한국어인 방문자는 ${TARGET} 주소로 이동합니다`);
  });

  it('says the query parameter as it appears in the link', () => {
    expect(say(en, rule({ type: 'query-param', key: 'utm_source', value: 'mail' }))).toBe(
      `Visitors opening the link with ?utm_source=mail go to ${TARGET}`,
    );
    expect(say(ko, rule({ type: 'query-param', key: 'utm_source', value: 'mail' }))).toBe(
      `?utm_source=mail 매개변수를 붙여 링크를 연 방문자는 ${TARGET} 주소로 이동합니다`,
    );
    expect(say(en, rule({ type: 'any-value-query-param', key: 'ref' }))).toBe(
      `Visitors opening the link with ?ref set to any value go to ${TARGET}`,
    );
    expect(say(en, rule({ type: 'valueless-query-param', key: 'beta' }))).toBe(
      `Visitors opening the link with ?beta and no value go to ${TARGET}`,
    );
  });

  it('names a country with its code, a date as people write it, an address range', () => {
    expect(say(en, rule({ type: 'geolocation-country-code', value: 'KR' }))).toBe(
      `Visitors from South Korea (KR) go to ${TARGET}`,
    );
    expect(say(ko, rule({ type: 'geolocation-country-code', value: 'KR' }))).toBe(
      `대한민국(KR)에서 접속한 방문자는 ${TARGET} 주소로 이동합니다`,
    );
    const december = isoFromLocalInput('2026-12-01T00:00') as string;
    expect(say(en, rule({ type: 'before-date', value: december }))).toBe(
      `Visitors arriving before Dec 1, 2026 go to ${TARGET}`,
    );
    expect(say(ko, rule({ type: 'after-date', value: december }))).toBe(
      `2026. 12. 1. 후에 방문한 방문자는 ${TARGET} 주소로 이동합니다`,
    );
    expect(say(en, rule({ type: 'ip-address', value: '10.0.0.0/8' }))).toBe(
      `Visitors from addresses in 10.0.0.0/8 go to ${TARGET}`,
    );
    expect(say(en, rule({ type: 'ip-address', value: '203.0.113.7' }))).toBe(
      `Visitors from the address 203.0.113.7 go to ${TARGET}`,
    );
  });

  it('joins several conditions into one sentence, the device still who goes', () => {
    const several = rule(
      { type: 'browser', value: 'chrome' },
      { type: 'device', value: 'android' },
      { type: 'geolocation-country-code', value: 'kr' },
    );
    expect(say(en, several)).toBe(`Android phones using Chrome and from South Korea (KR) go to ${TARGET}`);
    expect(say(ko, several)).toBe(
      `크롬을 쓰는, 대한민국(KR)에서 접속한 안드로이드 휴대폰을 쓰는 방문자는 ${TARGET} 주소로 이동합니다`,
    );
  });

  it('grows while the person types: blanks show as …, a missing address and conditions are asked for', () => {
    expect(say(en, rule({ type: 'query-param', key: 'utm_source', value: '' }))).toBe(
      `Visitors opening the link with ?utm_source=… go to ${TARGET}`,
    );
    const noTarget = { target_url: '', conditions: [{ type: 'device', value: 'android' }] } as RedirectRuleBody;
    expect(say(en, noTarget)).toBe('Android phones go to the address you enter below');
    expect(say(ko, noTarget)).toBe('안드로이드 휴대폰을 쓰는 방문자는 아래에 입력할 주소로 이동합니다');
    expect(say(en, rule())).toMatch(/^Add a condition/);
  });
});

describe('the words of rules, limits, tags and visits', () => {
  type Catalog = Record<string, { message: string }>;
  const catalog = (language: string): Catalog =>
    JSON.parse(readFileSync(new URL(`../../public/_locales/${language}/messages.json`, import.meta.url), 'utf8'));
  const NEW_KEYS =
    /^(rule|rules|limit|limits|forwardQuery|badge|tagRename|tagDelete|tagNew|tagName|visits|historyRules)/;

  it('never use a (으)로-style stand-in in Korean, nor API names in either language', () => {
    for (const language of ['en', 'ko']) {
      for (const [key, { message }] of Object.entries(catalog(language))) {
        if (!NEW_KEYS.test(key)) continue;
        expect(message, key).not.toMatch(/\((으|이|을|은|과)\)/);
        expect(message, key).not.toMatch(/redirect_rules|max_visits|valid_since|forward_query|query-param|geolocation/);
      }
    }
  });
});
