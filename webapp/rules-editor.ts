import { MAX_REDIRECT_RULES } from '../core/rules/redirect-rule.js';
import { h } from '../ui/dom.js';
import type { MessageKey } from '../ui/i18n.js';
import { clearFieldError, showFieldError } from './field-errors.js';
import { t } from './i18n.js';
import { decoration, type RuleFocus, type RuleItem, ruleItem } from './rule-item.js';
import { moveRule, newCondition, type RuleDraft } from './rules-form-model.js';

/** The rules part of a link's details: its drafts, and where a problem with one is shown. */
export interface RulesEditor {
  element: HTMLElement;
  drafts(): RuleDraft[];
  /** Shows `text` by rule `rule` (by its condition's field, or its address when none is named). */
  showProblem(rule: number, text: string, condition?: number, key?: MessageKey): void;
  clearProblems(): void;
}

/**
 * An ordered list of rules, each read back as a sentence while it is edited ("Android phones go to
 * https://…"): add, remove and move rules (the first that matches wins, which the help says), add
 * and remove conditions. The list holds at most `MAX_REDIRECT_RULES` and says so when full.
 */
export function rulesEditor(base: string, initial: RuleDraft[]): RulesEditor {
  let drafts = initial.map((draft) => ({ ...draft, conditions: [...draft.conditions] }));
  const list = h('ol', { class: 'rules-list' });
  const count = h('p', { class: 'hint rules-count', id: `${base}-count`, 'aria-live': 'polite' });
  const add = h(
    'button',
    { type: 'button', class: 'add-rule', 'aria-describedby': count.id },
    decoration('+ '),
    t('ruleAdd'),
  );
  const full = h('p', { class: 'hint rules-full', hidden: true }, t('rulesFull'));
  /** Per rule: its address field, its problem paragraph, and its conditions' rows. */
  let parts: RuleItem[] = [];

  const render = (focus?: { rule: number; what: RuleFocus }) => {
    parts = drafts.map((draft, index) =>
      ruleItem(draft, {
        id: `${base}-rule-${index}`,
        index,
        count: drafts.length,
        redraw: (what) => render({ rule: index, what }),
        move: (by) => move(index, by),
        remove: () => {
          drafts.splice(index, 1);
          render({ rule: Math.min(index, drafts.length - 1), what: 'target' });
        },
      }),
    );
    list.replaceChildren(...parts.map((part) => part.element));
    count.textContent = t('rulesCount', [String(drafts.length), String(MAX_REDIRECT_RULES)]);
    const isFull = drafts.length >= MAX_REDIRECT_RULES;
    add.disabled = isFull;
    full.hidden = !isFull;
    if (focus === undefined) return;
    const item = list.children[focus.rule];
    if (!(item instanceof HTMLElement)) return add.focus();
    const selector = {
      target: 'input.rule-target',
      condition: 'li.condition:last-child select.condition-type',
      up: 'button.move-up',
      down: 'button.move-down',
      'add-condition': 'button.add-condition',
    }[focus.what];
    const wanted = item.querySelector<HTMLElement>(selector);
    // A moved rule's own button may be disabled at the top or bottom: keep the keyboard in the rule.
    (wanted && !(wanted as HTMLButtonElement).disabled
      ? wanted
      : item.querySelector<HTMLElement>('input.rule-target')
    )?.focus();
  };

  const move = (index: number, by: -1 | 1) => {
    drafts = moveRule(drafts, index, by);
    render({ rule: index + by, what: by === -1 ? 'up' : 'down' });
  };

  add.addEventListener('click', () => {
    if (drafts.length >= MAX_REDIRECT_RULES) return;
    drafts.push({ target: '', conditions: [newCondition('device')] });
    render({ rule: drafts.length - 1, what: 'condition' });
  });
  render();

  const element = h(
    'fieldset',
    { class: 'rules-editor' },
    h('legend', {}, t('rulesHeading')),
    h('p', { class: 'hint' }, t('rulesHelp')),
    h('p', { class: 'hint' }, t('rulesAllConditions')),
    list,
    h('div', { class: 'row' }, add, count),
    full,
  );
  return {
    element,
    drafts: () => drafts,
    showProblem(rule, text, condition, key) {
      const part = parts[rule];
      if (part === undefined) return;
      const row = condition === undefined ? undefined : part.rows[condition];
      const field = row && key ? row.problemField(key) : part.target;
      showFieldError(field as HTMLInputElement, part.error, text);
    },
    clearProblems() {
      for (const part of parts) {
        clearFieldError(part.target, part.error);
        for (const row of part.rows)
          for (const control of row.element.querySelectorAll('input, select')) {
            clearFieldError(control as HTMLElement, part.error);
          }
      }
    },
  };
}
