import type { LinkView } from '../core/management/links/link-view.js';
import { EXPIRE_DURATIONS, type ExpireDuration } from '../core/rules/expiry.js';
import { h } from '../ui/dom.js';
import { errorSentence } from '../ui/error-sentence.js';
import { expireLabel } from '../ui/expire-label.js';
import { callApi, linkPath } from './api.js';
import { t } from './i18n.js';

/**
 * "Renew for [1 week] [Renew]" in a link's details, on every link: an expired one comes back for
 * the chosen time from now, an active one gets it from now too. A disabled link stays disabled
 * (the server keeps that), and a failure is said under the control in people's words.
 */
export function renewControl(link: LinkView, key: string, onRenewed: (link: LinkView) => void): HTMLFormElement {
  const id = `renew-${encodeURIComponent(link.code).replace(/%/g, '_')}`;
  const select = h('select', { id, class: 'renew-duration' });
  for (const duration of EXPIRE_DURATIONS) {
    select.append(h('option', { value: duration, selected: duration === '1week' }, expireLabel(t, duration)));
  }
  const error = h('p', { class: 'error', role: 'alert', hidden: true });
  const renew = h('button', { type: 'submit', class: 'primary' }, t('renewButton'));
  const form = h(
    'form',
    { class: 'renew', novalidate: true },
    h('label', { for: id }, t('renewLabel')),
    h('div', { class: 'row' }, select, renew),
    error,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.hidden = true;
    renew.disabled = true;
    try {
      const { data } = await callApi<LinkView>(linkPath(link.code), {
        method: 'PATCH',
        key,
        body: { expire_duration: select.value as ExpireDuration },
      });
      onRenewed(data);
    } catch (failure) {
      error.textContent = errorSentence(t, failure, 'link').text;
      error.hidden = false;
    } finally {
      renew.disabled = false;
    }
  });
  return form;
}
