import type { LinkView } from '../core/management/links/link-view.js';
import { formatDateTime } from '../ui/format-date.js';
import { language, t } from './i18n.js';
import type { LinkChange } from './link-details.js';

/** The note next to a link after a save in its details: what changed, said for people (a renewal with its new end). */
export function changeNote(link: LinkView, what: LinkChange | undefined): string {
  if (what === 'labels') return t('linkLabelsSavedNote');
  if (what === 'rules') return t('rulesSavedNote');
  if (what === 'visits-deleted') return t('visitsDeletedNote');
  if (what === 'password-set') return t('webPasswordSet');
  if (what === 'password-removed') return t('webPasswordRemoved');
  if (what === 'renewed') return t('renewedNote', [formatDateTime(Date.parse(link.expiration_date), language())]);
  return t('webSavedNote');
}
