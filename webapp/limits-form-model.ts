import type { MessageKey } from '../ui/i18n.js';
import { isoFromLocalInput, localInputValue } from './local-date-time.js';
import type { RulesLinkView } from './rule-shapes.js';

/** The limits as the form holds them: the visit limit and start as typed, forwarding as ticked. */
export interface LimitsDraft {
  maxVisits: string;
  validSince: string;
  forwardQuery: boolean;
}

/** The fields of a `PATCH` the limits set; `null` takes a limit or start away. */
export interface LimitsBody {
  max_visits: number | null;
  valid_since: string | null;
  forward_query: boolean;
}

/** A link's limits as the form shows them (its start in the browser's zone). */
export function limitsDraft(link: RulesLinkView): LimitsDraft {
  return {
    maxVisits: typeof link.max_visits === 'number' ? String(link.max_visits) : '',
    validSince: localInputValue(link.valid_since),
    forwardQuery: link.forward_query === true,
  };
}

/**
 * The draft as `PATCH` fields, or the field a person must fix first: a visit limit must be a whole
 * number from 1 (empty: no limit), a start a real date and time (empty: from now on).
 */
export function limitsBody(
  draft: LimitsDraft,
): { body: LimitsBody } | { problem: { field: 'maxVisits' | 'validSince'; text: MessageKey } } {
  const visits = draft.maxVisits.trim();
  let maxVisits: number | null = null;
  if (visits !== '') {
    maxVisits = /^\d+$/.test(visits) ? Number(visits) : Number.NaN;
    if (!Number.isSafeInteger(maxVisits) || maxVisits < 1) {
      return { problem: { field: 'maxVisits', text: 'limitVisitsInvalid' } };
    }
  }
  const since = draft.validSince.trim();
  const validSince = since === '' ? null : isoFromLocalInput(since);
  if (validSince === undefined) return { problem: { field: 'validSince', text: 'limitStartInvalid' } };
  return { body: { max_visits: maxVisits, valid_since: validSince, forward_query: draft.forwardQuery } };
}
