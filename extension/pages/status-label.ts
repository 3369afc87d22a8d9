import type { MessageKey } from '../../ui/i18n.js';
import type { HistoryStatus } from '../history/history-entry.js';
import { t } from '../i18n.js';

const LABELS = {
  local: 'statusLocal',
  synced: 'statusSynced',
  pending: 'statusPending',
  conflict: 'statusConflict',
  failed: 'statusFailed',
} as const satisfies Record<HistoryStatus, MessageKey>;

/** The short word shown in a link's badge. */
export function statusLabel(status: HistoryStatus): string {
  return t(LABELS[status]);
}
