import { h } from '../ui/dom.js';

/** Whether a note reports what was done or what failed: they look different (never both green). */
export type NoteKind = 'done' | 'error';

/**
 * Says what an action changed (or why it failed) next to the link it acted on, under the row's
 * buttons, where the eye already is. One note at a time: a new action clears the last one.
 */
export function showRowNote(root: ParentNode, code: string, text: string, kind: NoteKind): void {
  clearRowNotes(root);
  const row = [...root.querySelectorAll<HTMLTableRowElement>('tr[data-code]')].find((tr) => tr.dataset.code === code);
  const cell = row?.querySelector('td.actions');
  if (!cell) return;
  cell.append(h('p', { class: `row-note ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text));
}

/** Removes every row's note, before a new action speaks. */
export function clearRowNotes(root: ParentNode): void {
  for (const note of root.querySelectorAll('.row-note')) note.remove();
}
