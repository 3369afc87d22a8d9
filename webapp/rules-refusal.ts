import { ApiError } from '../client/api-errors.js';
import { errorSentence } from '../ui/error-sentence.js';
import type { Translate } from '../ui/i18n.js';

/**
 * Where a refused save of rules and limits belongs: by a rule (its condition's parameter name or
 * value when the message names one), the visit limit, the start, or under the form.
 */
export type RefusalPlace =
  | { rule: number; condition?: number; field?: 'key' | 'value' }
  | 'maxVisits'
  | 'validSince'
  | 'form';

/**
 * A server's refusal of a rules-and-limits save, placed by the field its message names
 * (`redirect_rules[2]…`, `max_visits`, `valid_since`) and said in the page's words: a rule's
 * address is held to the link's own URL rules, so its message reads as the link's would.
 */
export function rulesRefusal(t: Translate, failure: unknown): { place: RefusalPlace; text: string } {
  if (!(failure instanceof ApiError) || failure.status !== 400) {
    return { place: 'form', text: errorSentence(t, failure, 'link').text };
  }
  const message = failure.message;
  const rule = /redirect_rules\s*(?:\[|\.)\s*(\d+)/.exec(message);
  if (rule !== null) {
    const place = { rule: Number(rule[1]) };
    if (/target_url/.test(message)) {
      // The same rules as original_url: read the message as that field's for its sentence.
      const asLink = new ApiError(
        400,
        message.replace(/redirect_rules\s*(?:\[|\.)\s*\d+\]?\.target_url/, 'original_url'),
      );
      const sentence = errorSentence(t, asLink, 'shorten');
      return { place, text: sentence.field === 'url' ? sentence.text : t('ruleTargetInvalid') };
    }
    const condition = /conditions\s*\[\s*(\d+)\s*\]\s*(?:\.(key|value))?/.exec(message);
    if (condition === null) return { place, text: t('ruleRefused') };
    const field = condition[2] === 'key' ? 'key' : 'value';
    return { place: { ...place, condition: Number(condition[1]), field }, text: t('ruleRefused') };
  }
  if (/redirect_rules/.test(message)) return { place: 'form', text: t('ruleRefused') };
  if (/max_visits/.test(message)) return { place: 'maxVisits', text: t('limitVisitsInvalid') };
  if (/valid_since/.test(message)) return { place: 'validSince', text: t('limitStartInvalid') };
  return { place: 'form', text: errorSentence(t, failure, 'link').text };
}
