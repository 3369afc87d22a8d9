import { MAX_REDIRECT_RULES } from '../core/rules/redirect-rule.js';
import { h } from '../ui/dom.js';
import type { MessageKey } from '../ui/i18n.js';
import { type ConditionRow, conditionRow } from './condition-row.js';
import { clearFieldError, showFieldError } from './field-errors.js';
import { language, t } from './i18n.js';
import { ruleSentence } from './rule-sentence.js';
import { MAX_RULE_CONDITIONS, moveRule, newCondition, type RuleDraft, ruleBody } from './rules-form-model.js';

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
  const add = h('button', { type: 'button', class: 'add-rule', 'aria-describedby': count.id }, plus(), t('ruleAdd'));
  const full = h('p', { class: 'hint rules-full', hidden: true }, t('rulesFull'));
  /** Per rule: its address field, its problem paragraph, and its conditions' rows. */
  let parts: Array<{ target: HTMLInputElement; error: HTMLElement; rows: ConditionRow[] }> = [];

  const render = (focus?: { rule: number; what: 'target' | 'condition' | 'up' | 'down' | 'add-condition' }) => {
    parts = [];
    list.replaceChildren(...drafts.map((draft, index) => ruleItem(draft, index)));
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

  const ruleItem = (draft: RuleDraft, index: number): HTMLElement => {
    const id = `${base}-rule-${index}`;
    const sentence = h('p', { class: 'rule-sentence', id: `${id}-sentence` });
    const say = () => {
      sentence.textContent = ruleSentence(t, language(), ruleBody(draft));
    };
    const rows = draft.conditions.map((condition, at) =>
      conditionRow(
        `${id}-condition-${at}`,
        condition,
        (changed) => {
          draft.conditions[at] = changed;
          say();
        },
        () => {
          draft.conditions.splice(at, 1);
          render({ rule: index, what: draft.conditions.length > 0 ? 'condition' : 'add-condition' });
        },
      ),
    );
    const addCondition = h('button', { type: 'button', class: 'add-condition' }, plus(), t('ruleAddCondition'));
    addCondition.disabled = draft.conditions.length >= MAX_RULE_CONDITIONS;
    addCondition.addEventListener('click', () => {
      draft.conditions.push(newCondition('language'));
      render({ rule: index, what: 'condition' });
    });
    const target = h('input', {
      id: `${id}-target`,
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
    const error = h('p', { id: `${id}-error`, class: 'error', role: 'alert', hidden: true });
    parts.push({ target, error, rows });
    const button = (label: string, className: string, onClick: () => void, disabled = false, sign = '') => {
      const element = h('button', { type: 'button', class: className, disabled }, decoration(sign), label);
      element.addEventListener('click', onClick);
      return element;
    };
    say();
    return h(
      'li',
      { class: 'rule' },
      h(
        'fieldset',
        { 'aria-describedby': sentence.id },
        h('legend', {}, t('ruleLegend', [String(index + 1)])),
        sentence,
        h('ul', { class: 'conditions' }, ...rows.map((row) => row.element)),
        addCondition,
        h('div', { class: 'field' }, h('label', { for: target.id }, t('ruleGoTo')), target),
        error,
        h(
          'div',
          { class: 'row rule-actions' },
          button(t('ruleMoveUp'), 'move-up', () => move(index, -1), index === 0, '↑ '),
          button(t('ruleMoveDown'), 'move-down', () => move(index, 1), index === drafts.length - 1, '↓ '),
          button(t('ruleRemove'), 'danger remove-rule', () => {
            drafts.splice(index, 1);
            render({ rule: Math.min(index, drafts.length - 1), what: 'target' });
          }),
        ),
      ),
    );
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

/** A sign before a button's words that a screen reader need not say ("+", "↑"). */
function decoration(sign: string): Node | string {
  return sign === '' ? '' : h('span', { 'aria-hidden': 'true' }, sign);
}

function plus(): Node | string {
  return decoration('+ ');
}
