import { qrCodeSvg } from './qr-code.js';

/** How many pixels a PNG gives each module of the code: sharp when printed, small as a file. */
const PNG_MODULE_PIXELS = 10;

/**
 * The file a QR code of `code` is saved as, e.g. `abc123.svg` or `한글코드.png`. Codes are
 * letters, digits, Hangul, `_` and `-` (core/rules/code.ts), which every file system keeps as they
 * are, so a Hangul code stays readable; anything a file system refuses is replaced all the same,
 * in case an older record holds it.
 */
export function qrFileName(code: string, extension: 'svg' | 'png'): string {
  const safe = code
    .normalize('NFC')
    .replace(/[\\/:*?"<>|\p{Cc}\s]/gu, '_')
    .replace(/^\.+/, '');
  return `${safe || 'qr-code'}.${extension}`;
}

/**
 * The QR code of `text` as a stand-alone SVG file: the same drawing as on screen, with the XML
 * namespace and a size so image viewers and editors open it as they find it.
 */
export function qrSvgFile(document: Document, text: string): Blob {
  const svg = qrCodeSvg(document, text);
  const size = Number(svg.getAttribute('viewBox')?.split(' ')[2] ?? 0);
  svg.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  svg.setAttribute('width', String(size * PNG_MODULE_PIXELS));
  svg.setAttribute('height', String(size * PNG_MODULE_PIXELS));
  const markup = new XMLSerializer().serializeToString(svg);
  return new Blob([`<?xml version="1.0" encoding="UTF-8"?>\n${markup}\n`], { type: 'image/svg+xml' });
}

/**
 * The QR code of `text` as a PNG, drawn in a canvas in the page from the SVG's own shapes (its
 * `rect` and `path` data through `Path2D`). Loading the SVG as an image would need `blob:` or
 * `data:` images, which the web app's Content-Security-Policy (`default-src 'self'`) refuses.
 */
export async function qrPngFile(document: Document, text: string): Promise<Blob> {
  const svg = qrCodeSvg(document, text);
  const size = Number(svg.getAttribute('viewBox')?.split(' ')[2] ?? 0);
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = size * PNG_MODULE_PIXELS;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('This browser cannot draw a PNG.');
  context.scale(PNG_MODULE_PIXELS, PNG_MODULE_PIXELS);
  for (const shape of svg.children) {
    context.fillStyle = shape.getAttribute('fill') ?? '#000';
    if (shape.localName === 'rect') {
      context.fillRect(0, 0, Number(shape.getAttribute('width')), Number(shape.getAttribute('height')));
    } else if (shape.localName === 'path') {
      context.fill(new Path2D(shape.getAttribute('d') ?? ''));
    }
  }
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('This browser cannot draw a PNG.'))), 'image/png'),
  );
}

/** Hands `blob` to the browser as a download named `name`. */
export function saveFile(document: Document, blob: Blob, name: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

export interface QrDownloadLabels {
  /** The SVG button's text, e.g. "Download SVG". */
  svg: string;
  png: string;
  /** The buttons' accessible names, naming the link (`$1` filled in by the caller). */
  svgLabel: string;
  pngLabel: string;
}

/**
 * Two buttons that save the QR code of `shortUrl` as `<code>.svg` and `<code>.png`: the web app's
 * link details and the extension's popup both offer them, so people can print or share the code.
 */
export function qrDownloadButtons(
  document: Document,
  link: { shortUrl: string; code: string },
  labels: QrDownloadLabels,
): HTMLElement {
  const group = document.createElement('div');
  group.className = 'qr-download';
  const svgButton = button(document, 'qr-svg', labels.svg, labels.svgLabel);
  svgButton.addEventListener('click', () =>
    saveFile(document, qrSvgFile(document, link.shortUrl), qrFileName(link.code, 'svg')),
  );
  const pngButton = button(document, 'qr-png', labels.png, labels.pngLabel);
  pngButton.addEventListener('click', async () => {
    saveFile(document, await qrPngFile(document, link.shortUrl), qrFileName(link.code, 'png'));
  });
  group.append(svgButton, pngButton);
  return group;
}

function button(document: Document, className: string, text: string, label: string): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.className = className;
  element.textContent = text;
  element.setAttribute('aria-label', label);
  return element;
}
