import { REDIRECT_CONDITION_TYPES, RULE_BROWSERS, RULE_DEVICES } from '../core/rules/redirect-rule.js';
import { h } from '../ui/dom.js';
import type { MessageKey } from '../ui/i18n.js';
import { t } from './i18n.js';
import { type ConditionDraft, hasKey, hasValue, newCondition } from './rules-form-model.js';

type ConditionType = (typeof REDIRECT_CONDITION_TYPES)[number];
type Device = (typeof RULE_DEVICES)[number];

/** Each kind of condition as a person would name it, in the kind select. */
const TYPE_LABELS = {
  device: 'ruleTypeDevice',
  browser: 'ruleTypeBrowser',
  language: 'ruleTypeLanguage',
  'query-param': 'ruleTypeQueryParam',
  'any-value-query-param': 'ruleTypeAnyValueQueryParam',
  'valueless-query-param': 'ruleTypeValuelessQueryParam',
  'geolocation-country-code': 'ruleTypeCountry',
  'before-date': 'ruleTypeBeforeDate',
  'after-date': 'ruleTypeAfterDate',
  'ip-address': 'ruleTypeIpAddress',
} as const satisfies Record<ConditionType, MessageKey>;

const DEVICE_OPTIONS = {
  android: 'ruleDeviceOptionAndroid',
  ios: 'ruleDeviceOptionIos',
  mobile: 'ruleDeviceOptionMobile',
  desktop: 'ruleDeviceOptionDesktop',
  windows: 'ruleDeviceOptionWindows',
  macos: 'ruleDeviceOptionMacos',
  linux: 'ruleDeviceOptionLinux',
  chromeos: 'ruleDeviceOptionChromeos',
} as const satisfies Record<Device, MessageKey>;

/** Browsers by their own names, the same in every language. */
const BROWSER_NAMES: Record<(typeof RULE_BROWSERS)[number], string> = {
  chrome: 'Chrome',
  firefox: 'Firefox',
  edge: 'Edge',
  safari: 'Safari',
  opera: 'Opera',
};

/** A condition's row and the control a problem with it is shown by. */
export interface ConditionRow {
  element: HTMLElement;
  /** The field a problem belongs to: the parameter name when that is what is wrong, else the value. */
  problemField(text: MessageKey): HTMLElement;
}

/**
 * One condition of a rule: its kind, then the fields that kind needs (a device list, a parameter
 * name and value, a date…), each labelled, and a button that removes it. `onChange` runs on every
 * keystroke so the rule's sentence follows the typing; `onRemove` on the button.
 */
export function conditionRow(
  id: string,
  draft: ConditionDraft,
  onChange: (draft: ConditionDraft) => void,
  onRemove: () => void,
): ConditionRow {
  const type = h('select', { id: `${id}-type`, class: 'condition-type' });
  for (const kind of REDIRECT_CONDITION_TYPES) {
    type.append(h('option', { value: kind, selected: kind === draft.type }, t(TYPE_LABELS[kind])));
  }
  const fields = h('div', { class: 'condition-fields' });
  let keyInput: HTMLInputElement | undefined;
  let valueControl: HTMLElement | undefined;
  const fill = (current: ConditionDraft) => {
    fields.replaceChildren();
    keyInput = undefined;
    valueControl = undefined;
    if (hasKey(current.type)) {
      keyInput = textInput(`${id}-key`, current.key, (key) => onChange({ ...current, key, value: currentValue() }));
      keyInput.placeholder = 'utm_source';
      fields.append(field(keyInput, t('ruleValueKey')));
    }
    if (hasValue(current.type)) {
      valueControl = valueInput(`${id}-value`, current, (value) => onChange({ ...current, key: currentKey(), value }));
      fields.append(field(valueControl, t(valueLabel(current.type))));
    }
  };
  const currentKey = () => keyInput?.value ?? '';
  const currentValue = () => (valueControl as HTMLInputElement | undefined)?.value ?? '';
  type.addEventListener('change', () => {
    const next = newCondition(type.value as ConditionType);
    fill(next);
    onChange(next);
  });
  fill(draft);
  const remove = h(
    'button',
    {
      type: 'button',
      class: 'icon-button remove-condition',
      'aria-label': t('ruleRemoveCondition'),
      title: t('ruleRemoveCondition'),
    },
    '✕',
  );
  remove.addEventListener('click', onRemove);
  const element = h(
    'li',
    { class: 'condition' },
    h('div', { class: 'condition-kind' }, field(type, t('ruleConditionType')), remove),
    fields,
  );
  return {
    element,
    problemField: (text) => (text === 'ruleQueryKeyInvalid' ? keyInput : valueControl) ?? type,
  };
}

function valueLabel(type: ConditionType): MessageKey {
  if (type === 'device') return 'ruleValueDevice';
  if (type === 'browser') return 'ruleValueBrowser';
  if (type === 'language') return 'ruleValueLanguage';
  if (type === 'geolocation-country-code') return 'ruleValueCountry';
  if (type === 'before-date' || type === 'after-date') return 'ruleValueDate';
  if (type === 'ip-address') return 'ruleValueIp';
  return 'ruleValueValue';
}

/** The value's control: a list for devices and browsers, a date picker for dates, else a text field. */
function valueInput(id: string, draft: ConditionDraft, onInput: (value: string) => void): HTMLElement {
  if (draft.type === 'device' || draft.type === 'browser') {
    const select = h('select', { id });
    const options: Array<[string, string]> =
      draft.type === 'device'
        ? RULE_DEVICES.map((device) => [device, t(DEVICE_OPTIONS[device])])
        : RULE_BROWSERS.map((browser) => [browser, BROWSER_NAMES[browser]]);
    for (const [value, label] of options) select.append(h('option', { value, selected: value === draft.value }, label));
    select.addEventListener('change', () => onInput(select.value));
    return select;
  }
  const input = textInput(id, draft.value, onInput);
  if (draft.type === 'before-date' || draft.type === 'after-date') input.type = 'datetime-local';
  if (draft.type === 'language') input.placeholder = 'ko';
  if (draft.type === 'geolocation-country-code') {
    input.placeholder = 'KR';
    input.autocapitalize = 'characters';
  }
  if (draft.type === 'ip-address') {
    input.placeholder = '10.0.0.0/8';
  }
  return input;
}

function textInput(id: string, value: string, onInput: (value: string) => void): HTMLInputElement {
  const input = h('input', { id, type: 'text', autocomplete: 'off', spellcheck: 'false' });
  input.value = value;
  input.addEventListener('input', () => onInput(input.value));
  return input;
}

function field(control: HTMLElement, label: string): HTMLElement {
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control);
}
