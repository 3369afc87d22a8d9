/** The element with this id; a missing one is a bug in the page's HTML, so it throws at once. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the page has no #${id}`);
  return element as T;
}

type Child = Node | string;

/**
 * A new element with attributes and children. Text is always set as text, never parsed as
 * markup: link targets and codes come from users.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : value);
  }
  element.append(...children);
  return element;
}

/** Shows `message` in an alert paragraph, or hides it when empty. */
export function showError(element: HTMLElement, message: string): void {
  element.textContent = message;
  element.hidden = message === '';
}
