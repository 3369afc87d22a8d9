import { byId } from '../ui/dom.js';

/** Tells screen readers (and the tests) what just happened, in the page's polite status region. */
export function announce(message: string): void {
  const status = byId('status');
  status.textContent = '';
  // A fresh text node, even for the same message twice, so it is read again.
  requestAnimationFrame(() => {
    status.textContent = message;
  });
}
