import type { HistoryEntry } from '../../extension/history/history-entry.js';
import { t } from '../../extension/i18n.js';
import { displayUrl } from '../../ui/display-url.js';

/** Which sentence says where Delete acts (the background decides the same way: link-service.ts). */
function confirmKey(entry: HistoryEntry, onServer: boolean) {
  if (onServer) return 'confirmDeleteSynced';
  return entry.status === 'synced' ? 'confirmDeleteListOnly' : 'confirmDeleteLocal';
}

/**
 * `onServer`: the link is synced to the server set with an API key, so Delete deletes it there
 * and its code becomes free for anyone; otherwise it is only removed from this browser.
 *
 * Asks, inside the link's own item, before Delete acts, saying where it acts; resolves true on
 * Delete, false on Cancel. In the item rather than `confirm()`: a popup's modal dialog closes
 * the popup in some browsers, and a person sees which link is meant.
 */
export function confirmDelete(item: HTMLElement, entry: HistoryEntry, onServer: boolean): Promise<boolean> {
  item.querySelector('.confirm-delete')?.remove();
  const name = entry.shortUrl || displayUrl(entry.originalUrl);
  const box = document.createElement('div');
  box.className = 'confirm-delete';
  box.setAttribute('role', 'alertdialog');
  const text = document.createElement('p');
  text.id = `confirm-${entry.id}`;
  text.textContent = t(confirmKey(entry, onServer), [name]);
  box.setAttribute('aria-describedby', text.id);
  box.setAttribute('aria-label', t('delete'));
  const yes = document.createElement('button');
  yes.type = 'button';
  yes.className = 'confirm-yes danger';
  yes.textContent = t('confirmDeleteYes');
  const no = document.createElement('button');
  no.type = 'button';
  no.className = 'confirm-no';
  no.textContent = t('cancel');
  box.append(text, yes, ' ', no);
  item.append(box);
  no.focus();
  return new Promise((resolve) => {
    yes.addEventListener('click', () => {
      box.remove();
      resolve(true);
    });
    no.addEventListener('click', () => {
      box.remove();
      resolve(false);
    });
  });
}
