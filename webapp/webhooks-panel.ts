import { byId, h, showError } from '../ui/dom.js';
import { errorSentence } from '../ui/error-sentence.js';
import { formatDateTime } from '../ui/format-date.js';
import { announce } from './announce.js';
import { callApi } from './api.js';
import { confirmDelete } from './confirm-delete.js';
import { copyFromButton } from './copy-button.js';
import { language, t } from './i18n.js';
import { addFailureWords, eventWords, failureWords } from './webhook-words.js';

interface WebhookView {
  id: number;
  url: string;
  events: string[];
  disabled: boolean;
  disabled_reason: string | null;
}
interface DeliveryView {
  id: string;
  type: string;
  created_at: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
}

const when = (iso: string) => formatDateTime(Date.parse(iso), language());

/**
 * The signed-in owner's webhooks: the list (each with its last deliveries and why they failed),
 * a form to add one (its secret shown once, with Copy), a test and Delete for each.
 */
export function setUpWebhooks(key: () => string | undefined) {
  const form = byId<HTMLFormElement>('webhook-form');
  const urlInput = byId<HTMLInputElement>('webhook-url');
  const error = byId('webhook-error');
  const secretBox = byId('webhook-secret');
  const list = byId<HTMLUListElement>('webhook-list');
  const empty = byId('webhook-empty');

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const signedKey = key();
    if (signedKey === undefined) return;
    showError(error, '');
    const events = [...form.querySelectorAll<HTMLInputElement>('input[name="webhook-event"]:checked')].map(
      (box) => box.value,
    );
    if (urlInput.value.trim() === '') {
      showError(error, t('webhookUrlRequired'));
      urlInput.focus();
      return;
    }
    if (events.length === 0) {
      showError(error, t('webhookChooseEvent'));
      return;
    }
    try {
      const { data } = await callApi<{ id: number; secret: string }>('api/v1/webhooks', {
        method: 'POST',
        key: signedKey,
        body: { url: urlInput.value.trim(), events },
      });
      urlInput.value = '';
      showSecret(data.secret);
      await reload();
    } catch (failure) {
      showError(error, addFailureWords(failure) ?? errorSentence(t, failure, 'other').text);
      urlInput.focus();
    }
  });

  /** The new endpoint's secret, shown only now, with a Copy button. */
  function showSecret(secret: string): void {
    const value = h('code', { id: 'webhook-secret-value', class: 'secret' }, secret);
    const copy = h('button', { type: 'button' }, t('copy'));
    copy.addEventListener('click', () => void copyFromButton(copy, secret));
    secretBox.replaceChildren(h('p', {}, t('webhookSecretShown')), h('div', { class: 'row' }, value, copy));
    secretBox.hidden = false;
    announce(t('webhookAdded'));
    copy.focus();
  }

  function endpointItem(webhook: WebhookView, signedKey: string): HTMLLIElement {
    const note = h('p', { class: 'row-note', role: 'status' });
    const deliveries = h('ul', { class: 'deliveries' });
    const test = h('button', { type: 'button' }, t('webhookTest'));
    const remove = h('button', { type: 'button', class: 'danger' }, t('delete'));
    const state = webhook.disabled
      ? h('p', { class: 'error' }, t('webhookDisabled', [failureWords(webhook.disabled_reason, null)]))
      : h('p', { class: 'muted' }, webhook.events.map(eventWords).join(', '));
    const item = h(
      'li',
      { class: 'webhook', 'data-id': String(webhook.id) },
      h('p', { class: 'webhook-url' }, webhook.url),
      state,
      // A disabled one takes no test: it is deleted and added again.
      h('div', { class: 'row' }, ...(webhook.disabled ? [remove] : [test, remove])),
      note,
      h('h4', {}, t('webhookDeliveriesHeading')),
      deliveries,
    );
    test.addEventListener('click', async () => {
      try {
        await callApi(`api/v1/webhooks/${webhook.id}/test`, { method: 'POST', key: signedKey });
        note.textContent = t('webhookTestQueued');
        // The test goes out at once: show how it went a moment later, and again on a slow day.
        for (const ms of [1500, 4000, 8000])
          setTimeout(() => void showDeliveries(webhook.id, signedKey, deliveries), ms);
      } catch (failure) {
        note.textContent = errorSentence(t, failure, 'other').text;
      }
    });
    remove.addEventListener('click', async () => {
      if (!(await confirmDelete(webhook.url, { title: 'webhookConfirmDeleteTitle', text: 'webhookConfirmDeleteText' })))
        return;
      try {
        await callApi(`api/v1/webhooks/${webhook.id}`, { method: 'DELETE', key: signedKey });
        announce(t('webhookDeleted'));
        await reload();
      } catch (failure) {
        note.textContent = errorSentence(t, failure, 'other').text;
      }
    });
    void showDeliveries(webhook.id, signedKey, deliveries);
    return item;
  }

  async function showDeliveries(id: number, signedKey: string, into: HTMLUListElement): Promise<void> {
    try {
      const { data } = await callApi<{ deliveries: DeliveryView[] }>(`api/v1/webhooks/${id}/deliveries`, {
        key: signedKey,
      });
      into.replaceChildren(
        ...(data.deliveries.length === 0
          ? [h('li', { class: 'muted' }, t('webhookNoDeliveries'))]
          : data.deliveries.map((delivery) =>
              h('li', { class: `delivery ${delivery.state}` }, deliveryWords(delivery)),
            )),
      );
    } catch (failure) {
      into.replaceChildren(h('li', { class: 'error' }, errorSentence(t, failure, 'other').text));
    }
  }

  async function reload(): Promise<void> {
    const signedKey = key();
    if (signedKey === undefined) return;
    try {
      const { data } = await callApi<{ webhooks: WebhookView[] }>('api/v1/webhooks', { key: signedKey });
      list.replaceChildren(...data.webhooks.map((webhook) => endpointItem(webhook, signedKey)));
      empty.hidden = data.webhooks.length > 0;
    } catch (failure) {
      showError(error, errorSentence(t, failure, 'other').text);
    }
  }

  return {
    reload,
    clear() {
      list.replaceChildren();
      secretBox.replaceChildren();
      secretBox.hidden = true;
      showError(error, '');
    },
  };
}

/** One delivery in a line: what, when, and how it went (why it failed, in words). */
function deliveryWords(delivery: DeliveryView): string {
  const what = `${eventWords(delivery.type)} · ${when(delivery.created_at)} · `;
  if (delivery.state === 'delivered') return what + t('webhookDelivered');
  const why = delivery.attempts > 0 ? failureWords(delivery.last_error, delivery.last_status) : '';
  if (delivery.state === 'failed') return `${what}${t('webhookGaveUp')}: ${why}`;
  const next = delivery.next_attempt_at ? t('webhookNextTry', [when(delivery.next_attempt_at)]) : t('webhookWaiting');
  return why === '' ? what + next : `${what}${why} · ${next}`;
}
