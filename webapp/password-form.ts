import type { LinkView } from '../core/management/links/link-view.js';
import { h } from '../ui/dom.js';
import { callApi, linkPath, messageOf } from './api.js';
import { t } from './i18n.js';

/** Whether a typed password fits the server's rule (4–128 characters, counted as code points). */
export const passwordFits = (password: string): boolean => {
  const length = [...password].length;
  return length >= 4 && length <= 128;
};

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
  const input = h('input', { id, type: 'password', autocomplete: 'new-password', maxlength: '128' });
  const set = h('button', { type: 'submit' }, t('webSetPassword'));
  const remove = h('button', { type: 'button', hidden: !link.password_protected }, t('webRemovePassword'));
  const result = h('p', { class: 'muted', role: 'status' });
  const error = h('p', { class: 'error', role: 'alert', hidden: true });
  const send = async (password: string | null) => {
    result.textContent = '';
    error.hidden = true;
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
      error.textContent = messageOf(failure);
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
    if (!passwordFits(input.value)) {
      result.textContent = '';
      error.textContent = t('errorPasswordLength');
      error.hidden = false;
      input.focus();
      return;
    }
    void send(input.value);
  });
  remove.addEventListener('click', () => void send(null));
  return form;
}
