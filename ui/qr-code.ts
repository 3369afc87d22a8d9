import { encode } from 'uqr';

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * An SVG QR code of `text`, built as DOM nodes: markup set through `innerHTML` is what add-on
 * reviews flag (Mozilla's linter: UNSAFE_VAR_ASSIGNMENT), even when, as here, it is generated.
 * Always dark on light, even in the dark theme: many scanners cannot read an inverted code.
 */
export function qrCodeSvg(document: Document, text: string): SVGSVGElement {
  const { data, size } = encode(text, { border: 2 });
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
  svg.setAttribute('shape-rendering', 'crispEdges');
  const background = document.createElementNS(SVG_NS, 'rect');
  background.setAttribute('width', String(size));
  background.setAttribute('height', String(size));
  background.setAttribute('fill', '#fff');
  // One path of unit squares, one per dark module.
  const modules = document.createElementNS(SVG_NS, 'path');
  modules.setAttribute('fill', '#000');
  modules.setAttribute(
    'd',
    data.flatMap((row, y) => row.flatMap((dark, x) => (dark ? [`M${x},${y}h1v1h-1z`] : []))).join(''),
  );
  svg.append(background, modules);
  return svg;
}
