import { FAVICON_PATH, FAVICON_SVG } from '../site/favicon.js';
import { ERROR_PAGE_WORDS, type PageReason } from './error-page-words.js';
import type { PageLanguage } from './page-language.js';

/**
 * The short-URL pages' whole stylesheet; the Content-Security-Policy allows exactly this by its
 * hash. Korean never breaks inside a word (`:lang(ko)`), while an address (a code of 40 Hangul
 * syllables, say) may break anywhere rather than push the page sideways on a phone.
 */
export const ERROR_PAGE_STYLE =
  ':root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#4f5761;--link:#0a4fd6;--line:#d9dde3}' +
  '@media (prefers-color-scheme:dark){:root{--bg:#16181c;--fg:#e8eaed;--muted:#aab1b9;--link:#8ab4ff;--line:#3a3f46}}' +
  '*{box-sizing:border-box}' +
  'body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.6 system-ui,-apple-system,"Segoe UI","Noto Sans KR","Noto Sans CJK KR",sans-serif}' +
  'main{max-width:34rem;margin:0 auto;padding:10vh 1.25rem 2rem}' +
  ':lang(ko){word-break:keep-all}' +
  '.brand{display:flex;align-items:center;gap:.6rem;margin:0 0 2rem;padding-bottom:1rem;border-bottom:1px solid var(--line)}' +
  '.brand svg{width:2rem;height:2rem;flex:none}' +
  '.brand p{margin:0;line-height:1.3}.brand strong{font-size:1.1rem}.brand span{color:var(--muted);font-size:.9rem}' +
  'h1{font-size:1.5rem;line-height:1.3;margin:0 0 1rem}' +
  'p{margin:0 0 1rem}' +
  'code{font:inherit;font-weight:600;word-break:normal;overflow-wrap:anywhere}' +
  '.nowrap{white-space:nowrap}' +
  'a{color:var(--link);font-weight:600}';

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** What one short-URL page says; every string is plain text, escaped here. */
export interface ErrorPageContent {
  language: PageLanguage;
  reason: PageReason;
  /** The address the visitor followed, as people read it (decoded: Hangul stays Hangul). */
  address: string;
  /** When an expired link expired (or a link not yet open opens), already written for people (`formatPageDate`). */
  expiredOn?: string;
}

/** A page's text before and after its one sentence that varies (`explain`), made once. */
interface PageFrame {
  head: string;
  tail: string;
}
const frames = new Map<string, PageFrame>();

/**
 * Everything of a page but the sentence with the address and date, per language and reason (six
 * at most): it is the same on every answer, and every click on an expired short link gets a page,
 * which cost five redirects' CPU while all of it was built each time (docs/performance.md).
 */
function frameOf(language: PageLanguage, reasonName: PageReason): PageFrame {
  const key = `${language} ${reasonName}`;
  let frame = frames.get(key);
  if (frame !== undefined) return frame;
  const words = ERROR_PAGE_WORDS[language];
  const reason = words.reasons[reasonName];
  frame = {
    head: `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><title>${escapeHtml(reason.heading)} · Linklet</title>
<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">
<style>${ERROR_PAGE_STYLE}</style>
</head><body><main>
<header class="brand">${FAVICON_SVG.replace('<svg ', '<svg aria-hidden="true" ')}<p><strong>Linklet</strong><br><span>${escapeHtml(words.tagline)}</span></p></header>
<h1>${escapeHtml(reason.heading)}</h1>
<p>`,
    tail: `</p>
<p>${escapeHtml(reason.advice)}</p>
<p><a href="/">${escapeHtml(words.home)}</a></p>
</main></body></html>
`,
  };
  frames.set(key, frame);
  return frame;
}

/**
 * The small self-contained page for someone who follows a dead short link in a browser: whose
 * page it is (Linklet's mark and name), what happened in their language, what to do, and a way
 * to the web app. No script and no file but the icon, so the strict policy holds.
 */
export function renderErrorPage(content: ErrorPageContent): string {
  const { head, tail } = frameOf(content.language, content.reason);
  const address = `<code>${escapeHtml(content.address)}</code>`;
  const date = `<span class="nowrap">${escapeHtml(content.expiredOn ?? '')}</span>`;
  return `${head}${ERROR_PAGE_WORDS[content.language].reasons[content.reason].explain(address, date)}${tail}`;
}
