/**
 * Whether an `Accept` header asks for an HTML page rather than JSON: it names `text/html` with a
 * q-value above 0, and at least as high as what it gives JSON (`application/json`, else
 * `application/*`, else `*\/*`: the most specific range decides, as RFC 9110 says). So a browser
 * (`text/html,…,*\/*;q=0.8`) gets the page, and `text/html;q=0, application/json` gets JSON.
 */
export function acceptPrefersHtml(accept: string | null | undefined): boolean {
  if (accept === null || accept === undefined) return false;
  // Media types are case-insensitive, but nearly everyone writes this one in lower case.
  if (!accept.includes('text/html') && !/text\/html/i.test(accept)) return false;
  if (accept === lastAccept) return lastAnswer;
  let html = 0;
  let json = -1;
  let jsonSpecificity = -1;
  for (const entry of accept.split(',')) {
    const [range = '', ...parameters] = entry.split(';');
    const type = range.trim().toLowerCase();
    const q = qualityOf(parameters);
    if (type === 'text/html') html = Math.max(html, q);
    const specificity = type === 'application/json' ? 2 : type === 'application/*' ? 1 : type === '*/*' ? 0 : -1;
    if (specificity > jsonSpecificity) {
      jsonSpecificity = specificity;
      json = q;
    } else if (specificity === jsonSpecificity && specificity >= 0) {
      json = Math.max(json, q);
    }
  }
  lastAccept = accept;
  lastAnswer = html > 0 && html >= json;
  return lastAnswer;
}

// Browsers send the same header on every request: the last one is answered without parsing.
let lastAccept = '';
let lastAnswer = false;

/** The `q` parameter (0 to 1; 1 when absent or unreadable, as most servers read it). */
function qualityOf(parameters: string[]): number {
  for (const parameter of parameters) {
    const [name = '', value = ''] = parameter.split('=');
    if (name.trim().toLowerCase() !== 'q') continue;
    const q = Number(value.trim());
    return Number.isFinite(q) && q >= 0 && q <= 1 ? q : 1;
  }
  return 1;
}
