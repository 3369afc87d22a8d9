import { renderSVG } from 'uqr';

/**
 * An SVG QR code of `text`. Always dark on light, even in the dark theme: many scanners cannot
 * read an inverted code.
 */
export function qrCodeSvg(text: string): string {
  return renderSVG(text, { border: 2, pixelSize: 4, whiteColor: '#fff', blackColor: '#000' });
}
