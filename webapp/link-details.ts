import type { LinkView } from '../core/management/links/link-view.js';
import { h } from '../ui/dom.js';
import { errorSentence } from '../ui/error-sentence.js';
import { qrCodeSvg } from '../ui/qr-code.js';
import { withScheme } from '../ui/with-scheme.js';
import { callApi, linkPath } from './api.js';
import { language, t } from './i18n.js';
import { linkLabelsForm } from './link-labels-form.js';
import { linkQrBox } from './link-qr-download.js';
import { linkRulesForm } from './link-rules-form.js';
import { loadStatsView } from './link-stats.js';
import { passwordForm } from './password-form.js';
import { renewControl } from './renew-control.js';
import { statsView } from './stats-view.js';
import { deleteVisitsButton } from './visits-delete.js';

/** What a save in the details changed, so the list's note says the right thing. */
export type LinkChange =
  | 'target'
  | 'labels'
  | 'renewed'
  | 'password-set'
  | 'password-removed'
  | 'rules'
  | 'visits-deleted';

export interface DetailsOptions {
  key: string;
  /** Called with the changed link after a new target, its title and tags, a renewal or its password was saved. */
  onChanged(link: LinkView, what?: LinkChange): void;
}

/**
 * The panel under a link's row: its clicks over the last 30 days, its QR code and a form to
 * point it at a new target. The clicks come from `GET /api/v1/links/{code}`; a server that does
 * not count clicks yet answers without them, and the panel says so.
 */
export function linkDetails(link: LinkView, options: DetailsOptions): HTMLElement {
  const id = `target-${encodeURIComponent(link.code).replace(/%/g, '_')}`;
  const clicks = h('div', { class: 'clicks' }, t('webLoading'));
  const qr = h('div', { class: 'qr', role: 'img', 'aria-label': t('qrLabel') });
  qr.append(qrCodeSvg(document, link.short_url));
  const target = h('input', { id, type: 'url', value: link.original_url, autocomplete: 'off', spellcheck: 'false' });
  const error = h('p', { class: 'error', role: 'alert', hidden: true });
  const save = h('button', { type: 'submit', class: 'primary' }, t('save'));
  const form = h(
    'form',
    { class: 'edit-target', novalidate: true },
    h('label', { for: id }, t('webTargetUrl')),
    h('div', { class: 'row' }, target, save),
    error,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.hidden = true;
    save.disabled = true;
    try {
      const { data } = await callApi<LinkView>(linkPath(link.code), {
        method: 'PATCH',
        key: options.key,
        body: { original_url: withScheme(target.value) },
      });
      options.onChanged(data);
    } catch (failure) {
      error.textContent = errorSentence(t, failure, 'link').text;
      error.hidden = false;
    } finally {
      save.disabled = false;
    }
  });
  void loadClicks(link, options.key, clicks);
  // The whole short URL and target, cut to one line in the row above, are read here in full.
  const full = h(
    'dl',
    { class: 'full-text' },
    h('dt', {}, t('resultHeading')),
    h('dd', {}, link.short_url),
    h('dt', {}, t('webColumnTarget')),
    h('dd', {}, link.original_url),
  );
  const password = passwordForm(link, options.key, (changed, set) =>
    options.onChanged(changed, set ? 'password-set' : 'password-removed'),
  );
  const labels = linkLabelsForm(link, options.key, (changed) => options.onChanged(changed, 'labels'));
  const renew = renewControl(link, options.key, (changed) => options.onChanged(changed, 'renewed'));
  const rules = linkRulesForm(link, options.key, (changed) => options.onChanged(changed, 'rules'));
  const visits = deleteVisitsButton(link, options.key, () => options.onChanged(link, 'visits-deleted'));
  return h(
    'div',
    { class: 'details' },
    h('div', { class: 'details-main' }, full, clicks, visits, labels, renew, form, rules, password),
    linkQrBox(qr, link),
  );
}

/** The link's stats (or an older server's daily clicks), in the page's words; a failure in them too. */
async function loadClicks(link: LinkView, key: string, into: HTMLElement): Promise<void> {
  try {
    const view = await loadStatsView(link.code, key);
    into.replaceChildren(statsView(document, view, { t, language: language() }));
  } catch (failure) {
    into.replaceChildren(h('p', { class: 'error' }, errorSentence(t, failure, 'link').text));
  }
}
