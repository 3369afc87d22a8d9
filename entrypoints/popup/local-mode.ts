import { browser } from 'wxt/browser';
import { storage } from 'wxt/utils/storage';
import { t } from '../../extension/i18n.js';

/** Set once the first popup's explanation of local mode was dismissed: it is said once, not every time. */
const introDismissed = storage.defineItem<boolean>('local:localModeIntroDismissed', { fallback: false });

/** Opens the options page (where the server is set) from a link, as the header's Options link does. */
function optionsLink(text: string): HTMLAnchorElement {
  const link = document.createElement('a');
  link.href = '/options.html';
  link.target = '_blank';
  link.className = 'set-server';
  link.textContent = text;
  link.addEventListener('click', (event) => {
    event.preventDefault();
    void browser.runtime.openOptionsPage();
  });
  return link;
}

/**
 * The line under a local link's "Only in this browser" badge on its result: the way out, a link
 * to the options to set a server, because a local short URL (`chrome-extension://…/open.html#/…`)
 * looks shareable and is not. Said once in a popup: not under each history item, and not while
 * the first popup's note (which ends with the same link) is showing (popup.css).
 */
export function localOnlyNote(): HTMLElement {
  const note = document.createElement('div');
  note.className = 'local-only';
  note.title = t('localOnlyTitle');
  note.append(optionsLink(t('localSetServer')));
  return note;
}

/**
 * The first popup after install, in local mode, says what local mode is, once: it stays until
 * dismissed, and is remembered as dismissed (not merely as seen: a popup closed at once by a
 * click elsewhere would otherwise never have been read).
 */
export async function showLocalModeIntro(container: HTMLElement, serverUrl: string): Promise<void> {
  if (serverUrl !== '' || (await introDismissed.getValue())) return;
  const heading = document.createElement('h2');
  heading.id = 'local-intro-heading';
  heading.textContent = t('localIntroTitle');
  const text = document.createElement('p');
  text.textContent = t('localIntroText');
  const dismiss = document.createElement('button');
  dismiss.type = 'button';
  dismiss.id = 'local-intro-dismiss';
  dismiss.textContent = t('localIntroDismiss');
  dismiss.addEventListener('click', () => {
    container.hidden = true;
    void introDismissed.setValue(true);
  });
  const actions = document.createElement('div');
  actions.className = 'row';
  actions.append(optionsLink(t('localSetServer')), dismiss);
  container.replaceChildren(heading, text, actions);
  container.setAttribute('aria-labelledby', heading.id);
  container.hidden = false;
}
