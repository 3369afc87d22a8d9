import type { LinkView } from '../core/management/links/link-view.js';
import { h } from '../ui/dom.js';
import { callApi, linkPath } from './api.js';
import { clearFieldError, showFieldError } from './field-errors.js';
import { t } from './i18n.js';
import { limitsBody, limitsDraft } from './limits-form-model.js';
import { linkLimitsView } from './link-limits-view.js';
import { browserTimeZone } from './local-date-time.js';
import type { RulesLinkView } from './rule-shapes.js';
import { rulesEditor } from './rules-editor.js';
import { draftsFromRules, rulesBody } from './rules-form-model.js';
import { rulesRefusal } from './rules-refusal.js';

/**
 * "Rules and limits" in a link's details: a disclosure (closed, its summary saying what is set) so
 * the details stay short for the many links without any, opening on "Where visitors go" and
 * "Limits", saved together with one `PATCH` (`redirect_rules`, `max_visits`, `valid_since`,
 * `forward_query`). What a person can fix is said by its field before anything is sent; what the
 * server refuses is said by the field it names.
 */
export function linkRulesForm(link: RulesLinkView, key: string, onSaved: (link: LinkView) => void): HTMLDetailsElement {
  const base = `rules-${encodeURIComponent(link.code).replace(/%/g, '_')}`;
  const editor = rulesEditor(base, draftsFromRules(link.redirect_rules));
  const draft = limitsDraft(link);
  const visitsHint = `${base}-visits-hint`;
  const visits = h('input', {
    id: `${base}-visits`,
    type: 'text',
    inputmode: 'numeric',
    autocomplete: 'off',
    'aria-describedby': visitsHint,
  });
  visits.value = draft.maxVisits;
  const visitsError = h('p', { id: `${base}-visits-error`, class: 'error', role: 'alert', hidden: true });
  const startHint = `${base}-start-hint`;
  const start = h('input', { id: `${base}-start`, type: 'datetime-local', 'aria-describedby': startHint });
  start.value = draft.validSince;
  const startError = h('p', { id: `${base}-start-error`, class: 'error', role: 'alert', hidden: true });
  const forwardHint = `${base}-forward-hint`;
  const forward = h('input', { id: `${base}-forward`, type: 'checkbox', 'aria-describedby': forwardHint });
  forward.checked = draft.forwardQuery;
  const error = h('p', { class: 'error', role: 'alert', hidden: true });
  const save = h('button', { type: 'submit', class: 'primary' }, t('rulesSave'));
  const limits = h(
    'fieldset',
    { class: 'limits' },
    h('legend', {}, t('limitsHeading')),
    h('label', { for: visits.id }, t('limitVisitsLabel')),
    visits,
    h('p', { id: visitsHint, class: 'hint' }, t('limitVisitsHelp')),
    visitsError,
    h('label', { for: start.id }, t('limitStartLabel')),
    start,
    h('p', { id: startHint, class: 'hint' }, t('limitStartHelp', [browserTimeZone()])),
    startError,
    h('div', { class: 'check' }, forward, h('label', { for: forward.id }, t('forwardQueryLabel'))),
    h('p', { id: forwardHint, class: 'hint' }, t('forwardQueryHelp')),
  );
  const form = h(
    'form',
    { class: 'edit-rules', novalidate: true },
    editor.element,
    limits,
    h('div', { class: 'row' }, save),
    error,
  );
  const fields = { maxVisits: [visits, visitsError], validSince: [start, startError] } as const;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.hidden = true;
    editor.clearProblems();
    for (const [input, message] of Object.values(fields)) clearFieldError(input, message);
    const rules = rulesBody(editor.drafts());
    if ('problem' in rules) {
      const { rule, condition, text } = rules.problem;
      return editor.showProblem(rule, t(text), condition, text);
    }
    const limited = limitsBody({ maxVisits: visits.value, validSince: start.value, forwardQuery: forward.checked });
    if ('problem' in limited) {
      const [input, message] = fields[limited.problem.field];
      return showFieldError(input, message, t(limited.problem.text));
    }
    save.disabled = true;
    try {
      const { data } = await callApi<LinkView>(linkPath(link.code), {
        method: 'PATCH',
        key,
        body: { redirect_rules: rules.rules, ...limited.body },
      });
      onSaved(data);
    } catch (failure) {
      const { place, text } = rulesRefusal(t, failure);
      if (typeof place === 'object') {
        const field = place.field === 'key' ? 'ruleQueryKeyInvalid' : 'ruleRefused';
        editor.showProblem(place.rule, text, place.condition, place.condition === undefined ? undefined : field);
      } else if (place === 'form') {
        error.textContent = text;
        error.hidden = false;
      } else showFieldError(fields[place][0], fields[place][1], text);
    } finally {
      save.disabled = false;
    }
  });
  const set = linkLimitsView(link);
  return h(
    'details',
    { class: 'rules-disclosure' },
    h('summary', {}, t('rulesSummary'), set.length > 0 ? h('span', { class: 'summary-badges' }, ...set) : ''),
    form,
  );
}
