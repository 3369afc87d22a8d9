import { byId } from '../ui/dom.js';
import type { MessageKey } from '../ui/i18n.js';
import { t } from './i18n.js';

/**
 * Asks before a delete, in a modal `<dialog>`: the rest of the page is inert while it is open,
 * Escape or Cancel says no, and focus returns to the button that asked. Resolves true for Delete.
 * `words` names the catalog's title and text (a link's by default; a webhook's has its own).
 */
export function confirmDelete(
  shortUrl: string,
  words: { title: MessageKey; text: MessageKey } = { title: 'webConfirmDeleteTitle', text: 'webConfirmDeleteText' },
): Promise<boolean> {
  const dialog = byId<HTMLDialogElement>('confirm-delete');
  byId('confirm-delete-title').textContent = t(words.title);
  byId('confirm-delete-text').textContent = t(words.text, [shortUrl]);
  const cancel = byId('confirm-cancel');
  const confirm = byId('confirm-delete-button');
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
