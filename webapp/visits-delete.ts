import { h } from '../ui/dom.js';
import { errorSentence } from '../ui/error-sentence.js';
import { callApi, linkPath } from './api.js';
import { confirmDanger } from './confirm-delete.js';
import { t } from './i18n.js';
import type { RulesLinkView } from './rule-shapes.js';

/**
 * "Delete visits" in a link's details: after a confirmation that says what goes (every visit and
 * the click count, for good) and what stays (the link), `DELETE /api/v1/links/{code}/visits`.
 * People clear a link's stats after testing it, or to start a campaign from 0.
 */
export function deleteVisitsButton(link: RulesLinkView, key: string, onDeleted: () => void): HTMLElement {
  const button = h('button', { type: 'button', class: 'danger delete-visits' }, t('visitsDelete'));
  const error = h('p', { class: 'error', role: 'alert', hidden: true });
  button.addEventListener('click', async () => {
    error.hidden = true;
    const sure = await confirmDanger({
      title: t('visitsDeleteTitle'),
      text: t('visitsDeleteText', [link.short_url]),
      action: t('visitsDelete'),
    });
    if (!sure) return button.focus();
    button.disabled = true;
    try {
      await callApi(`${linkPath(link.code)}/visits`, { method: 'DELETE', key });
      onDeleted();
    } catch (failure) {
      error.textContent = errorSentence(t, failure, 'link').text;
      error.hidden = false;
      button.disabled = false;
    }
  });
  return h('div', { class: 'delete-visits-box' }, button, error);
}
