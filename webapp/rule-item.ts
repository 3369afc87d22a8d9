import { MAX_RULE_CONDITIONS } from '../core/rules/redirect-rule.js';
import { h } from '../ui/dom.js';
import { type ConditionRow, conditionRow } from './condition-row.js';
import { language, t } from './i18n.js';
import { ruleSentence } from './rule-sentence.js';
import { newCondition, type RuleDraft, ruleBody } from './rules-form-model.js';

/** Where the editor puts the keyboard after it draws the rules again. */
export type RuleFocus = 'target' | 'condition' | 'up' | 'down' | 'add-condition';

/** What a rule's item asks of the editor that holds it. */
export interface RuleItemHost {
  /** The id its controls' ids start with. */
  id: string;
  index: number;
  count: number;
  /** Draws every rule again (a condition was added or removed), then focuses `focus` in this one. */
  redraw(focus: RuleFocus): void;
  move(by: -1 | 1): void;
  remove(): void;
}

/** One rule's item and the parts a problem is shown by: its address, its problem line, its conditions. */
export interface RuleItem {
  element: HTMLElement;
  target: HTMLInputElement;
  error: HTMLElement;
  rows: ConditionRow[];
}

/**
 * One rule as a group named "Rule 2": its sentence first (kept up to date while the person types,
 * and the group's description), its conditions, *Go to*, and Move up / Move down / Remove rule.
 * Edits change `draft` in place, so the editor's list always holds what is on screen.
 */
export function ruleItem(draft: RuleDraft, host: RuleItemHost): RuleItem {
  const sentence = h('p', { class: 'rule-sentence', id: `${host.id}-sentence` });
  const say = () => {
    sentence.textContent = ruleSentence(t, language(), ruleBody(draft));
  };
  const rows = draft.conditions.map((condition, at) =>
    conditionRow(
      `${host.id}-condition-${at}`,
      condition,
      (changed) => {
        draft.conditions[at] = changed;
        say();
      },
      () => {
        draft.conditions.splice(at, 1);
        host.redraw(draft.conditions.length > 0 ? 'condition' : 'add-condition');
      },
    ),
  );
  const addCondition = button(t('ruleAddCondition'), 'add-condition', () => {
    draft.conditions.push(newCondition('language'));
    host.redraw('condition');
  });
  addCondition.disabled = draft.conditions.length >= MAX_RULE_CONDITIONS;
  addCondition.prepend(decoration('+ '));
  const target = h('input', {
    id: `${host.id}-target`,
    class: 'rule-target',
    type: 'url',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'https://',
  });
  target.value = draft.target;
  target.addEventListener('input', () => {
    draft.target = target.value;
    say();
  });
  const error = h('p', { id: `${host.id}-error`, class: 'error', role: 'alert', hidden: true });
  const up = button(t('ruleMoveUp'), 'move-up', () => host.move(-1));
  up.prepend(decoration('↑ '));
  up.disabled = host.index === 0;
  const down = button(t('ruleMoveDown'), 'move-down', () => host.move(1));
  down.prepend(decoration('↓ '));
  down.disabled = host.index === host.count - 1;
  say();
  const element = h(
    'li',
    { class: 'rule' },
    h(
      'fieldset',
      { 'aria-describedby': sentence.id },
      h('legend', {}, t('ruleLegend', [String(host.index + 1)])),
      sentence,
      h('ul', { class: 'conditions' }, ...rows.map((row) => row.element)),
      addCondition,
      h('div', { class: 'field' }, h('label', { for: target.id }, t('ruleGoTo')), target),
      error,
      h(
        'div',
        { class: 'row rule-actions' },
        up,
        down,
        button(t('ruleRemove'), 'danger remove-rule', () => host.remove()),
      ),
    ),
  );
  return { element, target, error, rows };
}

function button(label: string, className: string, onClick: () => void): HTMLButtonElement {
  const element = h('button', { type: 'button', class: className }, label);
  element.addEventListener('click', onClick);
  return element;
}

/** A sign before a button's words that a screen reader need not say ("+", "↑"). */
export function decoration(sign: string): HTMLElement {
  return h('span', { 'aria-hidden': 'true' }, sign);
}
