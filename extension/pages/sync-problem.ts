import { plural } from '../../ui/plural.js';
import { language, t } from '../i18n.js';
import type { SyncStatus } from '../sync/sync-status.js';

/** What a sync found that the user should know: the status kept for the options page, or a popup's report. */
export type SyncProblems = Pick<SyncStatus, 'keyRefused' | 'limit' | 'refusedItems'>;

/**
 * The last sync's problem in words, or undefined when there is none. Links stop arriving
 * without a word otherwise: a refused key, a server that went past a bound of the pull
 * (docs/sync-limits.md), links left out for breaking Linklet's rules (the console says which).
 */
export function syncProblemText({ keyRefused, limit, refusedItems }: SyncProblems): string | undefined {
  if (keyRefused) return t('errorKeyRefused');
  const count = (n: number) => n.toLocaleString(language());
  if (limit?.kind === 'page-items') return t('syncLimitPageItems', [count(limit.bound)]);
  if (limit?.kind === 'answer-bytes') return t('syncLimitAnswerBytes', [count(Math.floor(limit.bound / 1024 ** 2))]);
  if (limit?.kind === 'history') return t('syncLimitHistory', [count(limit.bound)]);
  if (refusedItems) {
    return plural(t, language(), refusedItems, {
      one: 'syncItemsRefusedOne',
      other: 'syncItemsRefused',
    });
  }
  return undefined;
}
