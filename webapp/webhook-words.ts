import type { MessageKey } from '../ui/i18n.js';
import { ApiError } from './api.js';
import { t } from './i18n.js';

/** What each event is called on the screen: when the endpoint is told, in words. */
export const EVENT_WORDS: Record<string, MessageKey> = {
  'link.created': 'webhookEventCreated',
  'link.updated': 'webhookEventUpdated',
  'link.deleted': 'webhookEventDeleted',
  'link.clicked': 'webhookEventClicked',
  'webhook.test': 'webhookEventTest',
};

export const eventWords = (type: string): string => t(EVENT_WORDS[type] ?? 'webhookEventTest');

/**
 * Why a delivery failed, in the page's language: the server writes its reasons for the log
 * (English, with addresses and codes), so only their kind is said here.
 */
export function failureWords(error: string | null, status: number | null): string {
  if (error?.startsWith('no answer')) return t('webhookFailedTimeout');
  if (error?.includes('private address')) return t('webhookFailedPrivate');
  if (status !== null) return t('webhookFailedStatus', [String(status)]);
  return t('webhookFailedUnreachable');
}

/** A refused `POST /api/v1/webhooks`, said next to the form; undefined: the usual error sentence. */
export function addFailureWords(failure: unknown): string | undefined {
  if (!(failure instanceof ApiError)) return undefined;
  if (failure.status === 409) return t('webhookTooMany');
  if (failure.status !== 400) return undefined;
  if (/private, loopback/.test(failure.message)) return t('webhookUrlPrivate');
  if (/^events/.test(failure.message)) return t('webhookChooseEvent');
  return t('webhookUrlInvalid');
}
