import type { LinkView } from '../core/management/links/link-view.js';
import { h } from '../ui/dom.js';
import { errorSentence } from '../ui/error-sentence.js';
import { lengthProblem } from '../ui/length-problem.js';
import { tagsFromText, tagsToText } from '../ui/tag-text.js';
import { callApi, linkPath } from './api.js';
import { clearFieldError, showFieldError } from './field-errors.js';
import { t } from './i18n.js';

/**
 * The Title and Tags fields of a link's details, saved together with one `PATCH` (an empty title
 * removes it, an empty tags field removes them all). People name and group their links here so the
 * list can show the name and narrow to a tag; a refused value is said in the form, in their words.
 */
export function linkLabelsForm(link: LinkView, key: string, onSaved: (link: LinkView) => void): HTMLFormElement {
  const base = `labels-${encodeURIComponent(link.code).replace(/%/g, '_')}`;
  // No maxlength: it counts UTF-16 units, so it would cut a title of emoji the server accepts.
  const title = h('input', { id: `${base}-title`, type: 'text', autocomplete: 'off' });
  title.value = link.title ?? '';
  const hintId = `${base}-tags-hint`;
  const tags = h('input', {
    id: `${base}-tags`,
    type: 'text',
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': hintId,
  });
  tags.value = tagsToText(link.tags);
  const error = h('p', { id: `${base}-error`, class: 'error', role: 'alert', hidden: true });
  const save = h('button', { type: 'submit', class: 'primary' }, t('linkLabelsSave'));
  const form = h(
    'form',
    { class: 'edit-labels', novalidate: true },
    h('label', { for: title.id }, t('linkTitleLabel')),
    title,
    h('label', { for: tags.id }, t('linkTagsLabel')),
    h('div', { class: 'row' }, tags, save),
    h('p', { id: hintId, class: 'hint' }, t('linkTagsHint')),
    error,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearFieldError(title, error);
    const problem = lengthProblem(t, 'title', title.value);
    if (problem !== undefined) return showFieldError(title, error, problem);
    save.disabled = true;
    try {
      const text = title.value.trim();
      const { data } = await callApi<LinkView>(linkPath(link.code), {
        method: 'PATCH',
        key,
        body: { title: text === '' ? null : text, tags: tagsFromText(tags.value) },
      });
      onSaved(data);
    } catch (failure) {
      error.textContent = errorSentence(t, failure, 'link').text;
      error.hidden = false;
    } finally {
      save.disabled = false;
    }
  });
  return form;
}
