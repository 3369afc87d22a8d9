import { h } from '../ui/dom.js';

/** How many characters of a long target's end stay in view: enough for its last path part or query. */
const TARGET_END_CHARS = 20;

/**
 * A short URL as a list shows it: the host every link shares is what gets cut (with an ellipsis),
 * never the code, which is what tells one link from the next (SPEC "Everyday use"). The code
 * stays whole, wrapping when a long one is wider than its cell. The link's name is the whole URL.
 */
export function shortUrlLink(shortUrl: string, code: string): HTMLAnchorElement {
  const at = shortUrl.lastIndexOf(`/${code}`);
  const [host, rest] = at < 0 ? ['', shortUrl] : [shortUrl.slice(0, at + 1), shortUrl.slice(at + 1)];
  return h(
    'a',
    // Named explicitly: its parts are laid out as boxes, which a name computed from them would
    // read with a space between host and code.
    {
      class: 'short-url',
      href: shortUrl,
      rel: 'noreferrer',
      target: '_blank',
      title: shortUrl,
      'aria-label': shortUrl,
    },
    h('span', { class: 'short-host' }, host),
    h('span', { class: 'short-code' }, rest),
  );
}

/**
 * A target URL on one line, cut in its middle: its start (the site) and its end (where targets
 * of one site differ: the article, the query) stay in view. The whole URL is the tooltip and,
 * read as one text, the two parts are the whole URL for screen readers and copying.
 */
export function targetText(url: string): HTMLSpanElement {
  const chars = Array.from(url);
  // A short URL keeps half for its start: what fits is then shown whole, with nothing between.
  const split = chars.length - Math.min(TARGET_END_CHARS, Math.floor(chars.length / 2));
  return h(
    'span',
    { class: 'target-text', title: url },
    h('span', { class: 'target-start' }, chars.slice(0, split).join('')),
    h('span', { class: 'target-end' }, chars.slice(split).join('')),
  );
}
