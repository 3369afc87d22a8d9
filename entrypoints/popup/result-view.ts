import type { HistoryEntry } from '../../extension/history/history-entry.js';
import { notMadeYet } from '../../extension/history/link-readiness.js';
import { language, t } from '../../extension/i18n.js';
import { statusLabel } from '../../extension/pages/status-label.js';
import { formatDateTime, isoDateTime } from '../../ui/format-date.js';
import { qrCodeSvg } from '../../ui/qr-code.js';
import { qrDownloadButtons } from '../../ui/qr-download.js';
import { localOnlyNote } from './local-mode.js';

const $ = <T extends HTMLElement>(selector: string) => document.querySelector(selector) as T;

/**
 * Fills the result panel with a link: short URL, state, expiration and QR code. A local link
 * gets no QR code (no phone can open it) but the way to set a server; a pending one (the server
 * was not answering) no Copy and no QR code until it exists; a server link gets its QR code and
 * the buttons that save it as SVG or PNG.
 */
export function showResult(entry: HistoryEntry): void {
  const input = $<HTMLInputElement>('#short-url');
  const state = $('#result-state');
  const expires = $<HTMLTimeElement>('#expires');
  const message = $('#result-message');

  input.value = entry.shortUrl;
  input.title = entry.shortUrl;
  state.textContent = statusLabel(entry.status);
  state.dataset.status = entry.status;
  state.title = entry.status === 'local' ? t('localOnlyTitle') : '';
  expires.dateTime = isoDateTime(entry.expiresAt);
  expires.textContent = formatDateTime(entry.expiresAt, language());
  message.hidden = entry.status !== 'pending';
  message.textContent = entry.status === 'pending' ? t('pendingExplained') : '';
  const local = entry.status === 'local';
  $('#result-local').replaceChildren(...(local ? [localOnlyNote()] : []));
  $('#result-local').hidden = !local;
  // A pending short URL does not exist until the server answers: nothing to copy or scan yet.
  const pending = notMadeYet(entry);
  $('#copy').hidden = pending;
  const qr = $('#qr');
  const withQr = !local && !pending && entry.shortUrl !== '';
  qr.replaceChildren(...(withQr ? [qrCodeSvg(document, entry.shortUrl)] : []));
  qr.hidden = !withQr;
  $('#qr-download').replaceChildren(
    ...(withQr
      ? [
          qrDownloadButtons(document, entry, {
            svg: t('qrDownloadSvg'),
            png: t('qrDownloadPng'),
            svgLabel: t('qrDownloadSvgLabel', [entry.code]),
            pngLabel: t('qrDownloadPngLabel', [entry.code]),
          }),
        ]
      : []),
  );
  $('#qr-download').hidden = !withQr;
  $('#result').hidden = false;
}

/**
 * Empties and hides the result panel: after a failed shorten the previous link and its QR code
 * would read as the answer to the new one.
 */
export function hideResult(): void {
  $('#result').hidden = true;
  $<HTMLInputElement>('#short-url').value = '';
  $('#qr').replaceChildren();
  $('#qr-download').replaceChildren();
  $('#result-local').replaceChildren();
}
