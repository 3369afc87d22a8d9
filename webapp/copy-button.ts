import { copyText } from '../ui/copy-text.js';
import { announce } from './announce.js';
import { t } from './i18n.js';

const SHOWN_MS = 2000;
const restoreTimers = new WeakMap<HTMLButtonElement, ReturnType<typeof setTimeout>>();

/**
 * Copies `text` and says so where the person clicked: the button reads "Copied" for about 2 s
 * (its width kept, so nothing beside it moves), and screen readers hear it too. A refused
 * clipboard says that instead, on the same button and in the status region.
 */
export async function copyFromButton(button: HTMLButtonElement, text: string): Promise<void> {
  const copied = await copyText(text);
  announce(copied ? t('copied') : t('copyFailed'));
  if (!copied) return;
  const label = button.dataset.label ?? button.textContent ?? '';
  button.dataset.label = label;
  button.style.minWidth = `${button.getBoundingClientRect().width}px`;
  button.textContent = t('webCopied');
  button.classList.add('copied');
  clearTimeout(restoreTimers.get(button));
  restoreTimers.set(
    button,
    setTimeout(() => {
      button.textContent = label;
      button.classList.remove('copied');
    }, SHOWN_MS),
  );
}
