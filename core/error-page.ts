/** The error page's whole stylesheet; the Content-Security-Policy allows exactly this by its hash. */
export const ERROR_PAGE_STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:15vh auto;padding:0 1rem}h1{font-size:1.5rem}';

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A small self-contained page for people who follow a dead short link in a browser. */
export function renderErrorPage(title: string, message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><title>${escapeHtml(title)} · Linklet</title>
<style>${ERROR_PAGE_STYLE}</style>
</head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></body></html>
`;
}
