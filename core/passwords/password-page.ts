import { ERROR_PAGE_STYLE, escapeHtml } from '../http/error-page.js';
import { ERROR_PAGE_WORDS } from '../http/error-page-words.js';
import type { PageLanguage } from '../http/page-language.js';
import { ERROR_PAGE_STYLE_HASH } from '../http/security-headers.js';
import { FAVICON_PATH, FAVICON_SVG } from '../site/favicon.js';
import { PASSWORD_PAGE_WORDS, type PasswordPageProblem } from './password-page-words.js';

/** The short-URL pages' look, plus the form's: a full-width field and button, the problem in red. */
export const PASSWORD_FORM_STYLE =
  'form{margin:0 0 1.5rem}label{display:block;font-weight:600;margin:0 0 .35rem}' +
  'input{display:block;width:100%;font:inherit;padding:.6rem .7rem;border:1px solid var(--muted);border-radius:.4rem;background:var(--bg);color:var(--fg)}' +
  'button{margin-top:.75rem;font:inherit;font-weight:600;padding:.6rem 1.2rem;border:0;border-radius:.4rem;background:var(--link);color:var(--bg);cursor:pointer;white-space:nowrap}' +
  'input:focus-visible,button:focus-visible{outline:3px solid var(--link);outline-offset:2px}' +
  '.problem{color:#b3261e;font-weight:600}@media (prefers-color-scheme:dark){.problem{color:#ffb4ab}}';

/** The hash of `PASSWORD_FORM_STYLE`, which the page's policy allows beside the shared stylesheet's. */
export const PASSWORD_FORM_STYLE_HASH = 'sha256-J3cAaXS/nI//Vtj6YHcRaWiHgBwPdh+6brlTBotv660=';

/**
 * The password page's policy: the short-URL pages' own, except that the form may be sent to this
 * origin (`form-action 'self'`) and the redirect that answers it may go to the link's web address,
 * which browsers check against `form-action` too (hence `http: https:`; the page has no script,
 * and every text in it is escaped, so no one can aim the form anywhere else).
 */
export const PASSWORD_PAGE_POLICY = `default-src 'none'; style-src '${ERROR_PAGE_STYLE_HASH}' '${PASSWORD_FORM_STYLE_HASH}'; img-src 'self'; base-uri 'none'; form-action 'self' http: https:; frame-ancestors 'none'`;

export interface PasswordPageContent {
  language: PageLanguage;
  /** The address the visitor followed, as people read it. */
  address: string;
  /** Where the form is sent: the short URL itself, as the visitor sees it (BASE_URL and the code). */
  action: string;
  problem?: PasswordPageProblem;
  /** For `too_many`: seconds until the next try. */
  waitSeconds?: number;
}

/**
 * The page a browser gets at a protected link's short URL: Linklet's mark, what the link needs,
 * a form that POSTs `password` to the same short URL, and the problem with the last try next to
 * the field. Like the other short-URL pages: no script, one inline stylesheet allowed by hash.
 * The field has no `maxlength`: the browser counts UTF-16 units, so it would silently cut a
 * password the owner was allowed to set (100 emoji are 100 characters but 200 units) and the right
 * password could never be entered. One too long for any link is simply wrong (`answerPasswordAttempt`).
 */
export function renderPasswordPage(content: PasswordPageContent): string {
  const words = PASSWORD_PAGE_WORDS[content.language];
  const { home, tagline } = ERROR_PAGE_WORDS[content.language];
  const problem =
    content.problem === undefined
      ? ''
      : `<p class="problem" id="problem" role="alert">${escapeHtml(words.problems[content.problem](content.waitSeconds ?? 60))}</p>\n`;
  const described = content.problem === undefined ? '' : ' aria-describedby="problem" aria-invalid="true"';
  return `<!doctype html>
<html lang="${content.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><meta name="robots" content="noindex"><title>${escapeHtml(words.heading)} · Linklet</title>
<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">
<style>${ERROR_PAGE_STYLE}</style><style>${PASSWORD_FORM_STYLE}</style>
</head><body><main>
<header class="brand">${FAVICON_SVG.replace('<svg ', '<svg aria-hidden="true" ')}<p><strong>Linklet</strong><br><span>${escapeHtml(tagline)}</span></p></header>
<h1>${escapeHtml(words.heading)}</h1>
<p>${words.explain(`<code>${escapeHtml(content.address)}</code>`)}</p>
<form method="post" action="${escapeHtml(content.action)}">
${problem}<label for="password">${escapeHtml(words.label)}</label>
<input id="password" name="password" type="password" required minlength="4" autocomplete="current-password" autofocus${described}>
<button type="submit">${escapeHtml(words.submit)}</button>
</form>
<p>${escapeHtml(words.advice)}</p>
<p><a href="/">${escapeHtml(home)}</a></p>
</main></body></html>
`;
}
