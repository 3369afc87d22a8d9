/**
 * What actions say on the page: their results and errors (alerts and statuses, next to a field,
 * a link or a panel), and an import's list of problems. The screen readers' own status region
 * (`#status`, see announce.ts) is not one of them: it only ever repeats the latest.
 */
const SAID = 'main [role="alert"], main [role="status"]:not(#status), #import-problems > li';

/**
 * A message belongs to the action that made it (SPEC "Screens": a new action clears the previous
 * result and error). Pressing a button, sending a form, narrowing the list or choosing a file is
 * a new action: just before it runs (capture phase, ahead of its own handler), whatever earlier
 * actions said anywhere on the page goes, so "Choose a file to import first." does not outlive a
 * search, nor "Disabled…" a Copy. The new action then says its own. An action still working
 * (`aria-busy`, an import) keeps its "…ing" line: its result is still to come.
 */
export function clearMessagesOnNewAction(root: Document = document): void {
  let clicked: EventTarget | null = null;
  root.addEventListener(
    'click',
    (event) => {
      const button = (event.target as Element | null)?.closest?.('button');
      if (!button) return;
      clicked = button;
      setTimeout(() => {
        clicked = null;
      });
      clearMessages(root);
    },
    true,
  );
  root.addEventListener(
    'submit',
    (event) => {
      // A submit button's click already cleared: its own click handler may have spoken since.
      if (clicked !== null && (event as SubmitEvent).submitter === clicked) return;
      clearMessages(root);
    },
    true,
  );
  const narrows = (event: Event) => {
    const target = event.target as Element | null;
    if (target?.closest?.('search') || (target instanceof HTMLInputElement && target.type === 'file')) {
      clearMessages(root);
    }
  };
  root.addEventListener('input', narrows, true);
  root.addEventListener('change', narrows, true);
}

/** Empties every message (an empty one takes no room: screens.css) and takes back invalid marks. */
function clearMessages(root: Document): void {
  for (const said of root.querySelectorAll<HTMLElement>(SAID)) {
    if (said.closest('[aria-busy="true"]')) continue;
    if (said.tagName === 'LI') said.remove();
    else said.textContent = '';
  }
  for (const field of root.querySelectorAll('main [aria-invalid="true"]')) field.removeAttribute('aria-invalid');
}
