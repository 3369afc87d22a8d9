import { byId } from '../ui/dom.js';
import { announce } from './announce.js';
import { showShortenError } from './field-errors.js';
import { t } from './i18n.js';
import { isShare, sharedUrl } from './shared-url.js';

/**
 * "Share → Linklet" on a phone opens the page with what was shared in the query (the manifest's
 * `share_target`, a GET). The URL goes into the shorten form, and the query leaves the address bar
 * at once, so a reload or a later launch does not fill it again. Nothing is shortened here: the
 * person checks the URL (and may add a code, a password, an expiry) and presses Shorten, which has
 * the focus.
 */
export function takeShare(): void {
  const params = new URLSearchParams(window.location.search);
  if (!isShare(params)) return;
  history.replaceState(history.state, '', window.location.pathname + window.location.hash);
  const url = sharedUrl(params);
  if (url === undefined) {
    showShortenError('url', t('webShareNoUrl'));
    byId('url').focus();
    return;
  }
  byId<HTMLInputElement>('url').value = url;
  byId('shorten').focus();
  announce(t('webShareFilled'));
}
