const SVG = 'http://www.w3.org/2000/svg';

/**
 * A padlock drawn as SVG in the text's colour, for the password badge: the 🔒 emoji is an empty
 * box where no emoji font is installed, and an image draws the same everywhere. Decorative (the
 * badge's words say what it means), so hidden from screen readers.
 */
export function lockIcon(document: Document): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '12');
  svg.setAttribute('height', '12');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.setAttribute('class', 'lock-icon');
  const shackle = document.createElementNS(SVG, 'path');
  shackle.setAttribute('d', 'M4.5 7V5a3.5 3.5 0 0 1 7 0v2');
  shackle.setAttribute('fill', 'none');
  shackle.setAttribute('stroke', 'currentColor');
  shackle.setAttribute('stroke-width', '1.8');
  const body = document.createElementNS(SVG, 'rect');
  for (const [name, value] of Object.entries({ x: '2.5', y: '7', width: '11', height: '8', rx: '1.5' }))
    body.setAttribute(name, value);
  body.setAttribute('fill', 'currentColor');
  svg.append(shackle, body);
  return svg;
}
