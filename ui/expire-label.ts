import type { ExpireDuration } from '../core/rules/expiry.js';
import type { MessageKey, Translate } from './i18n.js';

const LABELS = {
  '24h': 'expire24h',
  '48h': 'expire48h',
  '1week': 'expire1week',
  '1month': 'expire1month',
} as const satisfies Record<ExpireDuration, MessageKey>;

/** "24 hours", "1 week"… in the UI language; `t` is the page's (extension or web app). */
export function expireLabel(t: Translate, duration: ExpireDuration): string {
  return t(LABELS[duration]);
}
