import { byId, showError } from '../ui/dom.js';
import { errorSentence } from '../ui/error-sentence.js';
import { plural } from '../ui/plural.js';
import { callApi } from './api.js';
import { confirmDanger } from './confirm-delete.js';
import { clearFieldError, showFieldError } from './field-errors.js';
import { language, t } from './i18n.js';
import type { TagFilter } from './tag-filter.js';

/** A tag as the server takes it (core/management/links/link-labels.ts): letters, digits, - and _. */
const TAG = /^[\p{L}\p{Nd}_-]{1,32}$/u;

/**
 * "Rename tag" and "Delete tag" by the tag filter, for the tag it shows: a tag is renamed on every
 * one of the owner's links (`PATCH /api/v1/tags/{tag}`), or taken off them all after a
 * confirmation that says how many links carry it (`DELETE`). `onDone(tag)` reloads the list
 * narrowed to the renamed tag, or to every link after a delete.
 */
export function setUpTagTools(
  filter: TagFilter,
  key: () => string | undefined,
  onDone: (tag: string) => Promise<void>,
): { update(): void } {
  const tools = byId('tag-tools');
  const rename = byId<HTMLButtonElement>('tag-rename');
  const remove = byId<HTMLButtonElement>('tag-delete');
  const form = byId<HTMLFormElement>('tag-rename-form');
  const input = byId<HTMLInputElement>('tag-new-name');
  const error = byId('tag-rename-error');
  const note = byId('tag-note');
  const path = (tag: string) => `api/v1/tags/${encodeURIComponent(tag)}`;

  const closeForm = () => {
    form.hidden = true;
    clearFieldError(input, error);
  };
  /** Shows the tools for the tag the filter shows, or hides them for "all tags". */
  const update = () => {
    const tag = filter.value();
    tools.hidden = tag === '';
    if (tag === '' || form.dataset.tag !== tag) closeForm();
  };

  rename.addEventListener('click', () => {
    const tag = filter.value();
    form.dataset.tag = tag;
    byId('tag-new-name-label').textContent = t('tagNewName', [tag]);
    input.value = tag;
    form.hidden = false;
    showError(note, '');
    input.focus();
    input.select();
  });
  byId('tag-rename-cancel').addEventListener('click', () => {
    closeForm();
    rename.focus();
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearFieldError(input, error);
    const signedKey = key();
    const tag = form.dataset.tag ?? '';
    const name = input.value.trim();
    if (signedKey === undefined || tag === '') return;
    if (!TAG.test(name)) return showFieldError(input, error, t('tagNameInvalid'));
    try {
      await callApi(path(tag), { method: 'PATCH', key: signedKey, body: { name } });
      closeForm();
      const said = t('tagRenamedNote', [tag, name.toLowerCase()]);
      await onDone(name.toLowerCase());
      showNote(said);
      rename.focus();
    } catch (failure) {
      showFieldError(input, error, errorSentence(t, failure, 'link').text);
    }
  });
  remove.addEventListener('click', async () => {
    const signedKey = key();
    const tag = filter.value();
    if (signedKey === undefined || tag === '') return;
    closeForm();
    showError(note, '');
    const links = filter.links(tag) ?? 0;
    const sure = await confirmDanger({
      title: t('tagDeleteTitle'),
      text: plural(t, language(), links, { one: 'tagDeleteTextOne', other: 'tagDeleteTextOther' }, tag),
      action: t('tagDelete'),
    });
    if (!sure) return remove.focus();
    try {
      await callApi(path(tag), { method: 'DELETE', key: signedKey });
      await onDone('');
      showNote(t('tagDeletedNote', [tag]));
      byId('tag-filter').focus();
    } catch (failure) {
      showNote(errorSentence(t, failure, 'link').text, true);
    }
  });
  const showNote = (text: string, failed = false) => {
    note.textContent = text;
    note.hidden = false;
    note.classList.toggle('error', failed);
  };
  return { update };
}
