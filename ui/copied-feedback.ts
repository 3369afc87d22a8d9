/** How long a Copy button says "Copied": long enough to read, short enough to copy again. */
export const COPIED_MS = 2000;

const timers = new WeakMap<HTMLElement, ReturnType<typeof setTimeout>>();

/**
 * Turns `button` into "Copied" for about 2 s, where the person clicked (the platform's own
 * convention), then back to its label. A live region alone is invisible; this is seen. Clicking
 * again restarts the 2 s instead of leaving "Copied" as the label.
 */
export function showCopied(button: HTMLElement, copiedText: string): void {
  const previous = timers.get(button);
  const label = previous === undefined ? (button.textContent ?? '') : (button.dataset.label ?? '');
  if (previous !== undefined) clearTimeout(previous);
  button.dataset.label = label;
  button.dataset.copied = 'true';
  button.textContent = copiedText;
  timers.set(
    button,
    setTimeout(() => {
      button.textContent = label;
      delete button.dataset.copied;
      timers.delete(button);
    }, COPIED_MS),
  );
}
