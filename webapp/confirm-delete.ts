import { byId } from '../ui/dom.js';
import type { MessageKey } from '../ui/i18n.js';
import { t } from './i18n.js';

/** What a confirmation asks: its title, what will happen, and the word on the button that does it. */
export interface ConfirmQuestion {
  title: string;
  text: string;
  action: string;
}

/**
 * Asks before something that cannot be undone, in a modal `<dialog>`: the rest of the page is
 * inert while it is open, Escape or Cancel says no, and focus returns to the button that asked.
 * Resolves true for the action.
 */
export function confirmDanger(question: ConfirmQuestion): Promise<boolean> {
  const dialog = byId<HTMLDialogElement>('confirm-delete');
  byId('confirm-delete-title').textContent = question.title;
  byId('confirm-delete-text').textContent = question.text;
  const cancel = byId('confirm-cancel');
  const confirm = byId('confirm-delete-button');
  confirm.textContent = question.action;
  return new Promise((resolve) => {
    const close = (answer: boolean) => {
      cancel.removeEventListener('click', onCancel);
      confirm.removeEventListener('click', onConfirm);
      dialog.removeEventListener('close', onCancel);
      if (dialog.open) dialog.close();
      resolve(answer);
    };
    const onCancel = () => close(false);
    const onConfirm = () => close(true);
    cancel.addEventListener('click', onCancel);
    confirm.addEventListener('click', onConfirm);
    dialog.addEventListener('close', onCancel); // Escape
    dialog.showModal();
    cancel.focus(); // the safe choice first
  });
}

/**
 * Asks before a delete, saying what goes: a link's code becomes free for anyone. `words` names the
 * catalog's title and text (a link's by default; a webhook's has its own), `$1` being `shortUrl`.
 */
export function confirmDelete(
  shortUrl: string,
  words: { title: MessageKey; text: MessageKey } = { title: 'webConfirmDeleteTitle', text: 'webConfirmDeleteText' },
): Promise<boolean> {
  return confirmDanger({ title: t(words.title), text: t(words.text, [shortUrl]), action: t('delete') });
}
