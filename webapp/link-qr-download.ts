import type { LinkView } from '../core/management/links/link-view.js';
import { qrDownloadButtons } from '../ui/qr-download.js';
import { t } from './i18n.js';

/**
 * The details' QR code with the buttons that save it as `<code>.svg` and `<code>.png` (the same
 * as the popup's: ui/qr-download.ts), under it. Laid out here, through the CSSOM (which the
 * page's Content-Security-Policy allows, unlike style attributes), so the web app's stylesheet
 * needs no change.
 */
export function linkQrBox(qr: HTMLElement, link: LinkView): HTMLElement {
  const buttons = qrDownloadButtons(
    document,
    { shortUrl: link.short_url, code: link.code },
    {
      svg: t('qrDownloadSvg'),
      png: t('qrDownloadPng'),
      svgLabel: t('qrDownloadSvgLabel', [link.code]),
      pngLabel: t('qrDownloadPngLabel', [link.code]),
    },
  );
  Object.assign(buttons.style, { display: 'flex', gap: '6px', justifyContent: 'center', marginTop: '6px' });
  const box = document.createElement('div');
  box.className = 'qr-box';
  box.append(qr, buttons);
  return box;
}
