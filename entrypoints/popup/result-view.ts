import type { HistoryEntry } from '../../extension/history-entry.js';
import { language, t } from '../../extension/i18n.js';
import { statusLabel } from '../../extension/ui/status-label.js';
import { formatDateTime, isoDateTime } from '../../ui/format-date.js';
import { qrCodeSvg } from '../../ui/qr-code.js';

/** Fills the result panel with a link: short URL, state, expiration and QR code. */
export function showResult(entry: HistoryEntry): void {
  const section = document.querySelector<HTMLElement>('#result') as HTMLElement;
  const input = document.querySelector<HTMLInputElement>('#short-url') as HTMLInputElement;
  const state = document.querySelector<HTMLElement>('#result-state') as HTMLElement;
  const expires = document.querySelector<HTMLTimeElement>('#expires') as HTMLTimeElement;
  const message = document.querySelector<HTMLElement>('#result-message') as HTMLElement;
  const qr = document.querySelector<HTMLElement>('#qr') as HTMLElement;

  input.value = entry.shortUrl;
  state.textContent = statusLabel(entry.status);
  state.dataset.status = entry.status;
  expires.dateTime = isoDateTime(entry.expiresAt);
  expires.textContent = formatDateTime(entry.expiresAt, language());
  message.hidden = entry.status !== 'pending';
  message.textContent = entry.status === 'pending' ? t('pendingExplained') : '';
  qr.replaceChildren(...(entry.shortUrl ? [qrCodeSvg(document, entry.shortUrl)] : []));
  section.hidden = false;
}
