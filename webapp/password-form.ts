import type { LinkView } from '../core/management/links/link-view.js';
import { h } from '../ui/dom.js';
import { errorSentence } from '../ui/error-sentence.js';
import { lengthProblem } from '../ui/length-problem.js';
import { callApi, linkPath } from './api.js';
import { clearFieldError, showFieldError } from './field-errors.js';
import { t } from './i18n.js';

/**
 * The details' password form: set a new password (`PATCH {"password": …}`) and, on a protected
 * link, remove it (`{"password": null}`). What changed is said next to the form; the server never
 * shows a password, so the field always starts empty. `onChanged` learns whether one was set or
 * removed, so the note beside the link says which (the list is reloaded, taking this form with it).
 */
export function passwordForm(
  link: LinkView,
  key: string,
  onChanged: (link: LinkView, set: boolean) => void,
): HTMLElement {
  const id = `password-${encodeURIComponent(link.code).replace(/%/g, '_')}`;
  // No maxlength: it counts UTF-16 units and would cut an emoji password the server accepts.
  const input = h('input', { id, type: 'password', autocomplete: 'new-password' });
  const set = h('button', { type: 'submit' }, t('webSetPassword'));
  const remove = h('button', { type: 'button', hidden: !link.password_protected }, t('webRemovePassword'));
  const result = h('p', { class: 'muted', role: 'status' });
  const error = h('p', { id: `${id}-error`, class: 'error', role: 'alert', hidden: true });
  const send = async (password: string | null) => {
    result.textContent = '';
    clearFieldError(input, error);
    set.disabled = remove.disabled = true;
    try {
      const { data } = await callApi<LinkView>(linkPath(link.code), {
        method: 'PATCH',
        key,
        body: { password },
      });
      input.value = '';
      remove.hidden = !data.password_protected;
      result.textContent = t(password === null ? 'webPasswordRemoved' : 'webPasswordSet');
      onChanged(data, password !== null);
    } catch (failure) {
      error.textContent = errorSentence(t, failure, 'link').text;
      error.hidden = false;
    } finally {
      set.disabled = remove.disabled = false;
    }
  };
  const form = h(
    'form',
    { class: 'edit-password', novalidate: true },
    h('label', { for: id }, t('webNewPassword')),
    h('div', { class: 'row' }, input, set, remove),
    result,
    error,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const problem = lengthProblem(t, 'password', input.value);
    if (problem !== undefined) {
      result.textContent = '';
      showFieldError(input, error, problem);
      return;
    }
    void send(input.value);
  });
  remove.addEventListener('click', () => void send(null));
  return form;
}
