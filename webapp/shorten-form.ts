import type { LinkView } from '../core/management/links/link-view.js';
import { DEFAULT_EXPIRE_DURATION, EXPIRE_DURATIONS } from '../core/rules/expiry.js';
import { copyText } from '../ui/copy-text.js';
import { byId, h } from '../ui/dom.js';
import { errorSentence } from '../ui/error-sentence.js';
import { expireLabel } from '../ui/expire-label.js';
import { formatDateTime } from '../ui/format-date.js';
import { lengthProblem } from '../ui/length-problem.js';
import { qrCodeSvg } from '../ui/qr-code.js';
import { withScheme } from '../ui/with-scheme.js';
import { announce } from './announce.js';
import { ApiError, callApi, linkPath } from './api.js';
import { copyFromButton } from './copy-button.js';
import { clearShortenErrors, showShortenError } from './field-errors.js';
import { language, t } from './i18n.js';
import { rememberMadeHere } from './made-here.js';

interface ShortenData {
  short_url: string;
  original_url: string;
  code: string;
  expiration_date: string;
}

export interface ShortenFormOptions {
  /** The signed-in owner's key: links made with it are theirs. */
  key(): string | undefined;
  /** Told of each new link, so the links table can show it. */
  onShortened(): void;
}

/** The shorten form and its result panel: short URL, Copy, QR code and expiry. */
export function setUpShortenForm(options: ShortenFormOptions): void {
  const form = byId<HTMLFormElement>('shorten-form');
  const url = byId<HTMLInputElement>('url');
  const code = byId<HTMLInputElement>('code');
  const expire = byId<HTMLSelectElement>('expire');
  const submit = byId<HTMLButtonElement>('shorten');
  const shortUrl = byId<HTMLInputElement>('short-url');

  for (const duration of EXPIRE_DURATIONS) {
    expire.append(
      h('option', { value: duration, selected: duration === DEFAULT_EXPIRE_DURATION }, expireLabel(t, duration)),
    );
  }
  const copy = byId<HTMLButtonElement>('copy');
  copy.addEventListener('click', () => void copyFromButton(copy, shortUrl.value));

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearShortenErrors();
    if (url.value.trim() === '') {
      showShortenError('url', t('errorUrlRequired'));
      return;
    }
    // "example.com/page" is taken as https://example.com/page, and the field shows it so.
    url.value = withScheme(url.value);
    const customCode = code.value.trim();
    const password = byId<HTMLInputElement>('password');
    // Lengths are checked here, before anything is sent, as the server counts them (the fields
    // have no maxlength, which would cut what was typed). The code is sent as typed: the server
    // makes it NFC.
    const codeProblem = lengthProblem(t, 'code', customCode);
    if (codeProblem !== undefined) return showShortenError('code', codeProblem);
    const passwordProblem = password.value === '' ? undefined : lengthProblem(t, 'password', password.value);
    if (passwordProblem !== undefined) return showShortenError('password', passwordProblem);
    submit.disabled = true;
    announce(t('shortening'));
    try {
      const { data } = await callApi<ShortenData>('api/v1/shorten', {
        method: 'POST',
        key: options.key(),
        body: {
          original_url: url.value,
          custom_code: customCode || undefined,
          expire_duration: expire.value,
          password: password.value || undefined,
        },
      });
      password.value = '';
      showResult(data);
      if (options.key() === undefined) rememberMadeHere(data);
      announce(t('shortened'));
      byId('copy').focus();
      options.onShortened();
    } catch (failure) {
      byId('result').hidden = true;
      const { field, text } = await failureMessage(failure, customCode, options.key());
      showShortenError(field, text);
    } finally {
      submit.disabled = false;
    }
  });
}

function showResult(data: ShortenData): void {
  byId<HTMLInputElement>('short-url').value = data.short_url;
  const expires = byId<HTMLTimeElement>('expires');
  const at = Date.parse(data.expiration_date);
  expires.dateTime = data.expiration_date;
  expires.textContent = formatDateTime(at, language());
  byId('qr').replaceChildren(qrCodeSvg(document, data.short_url));
  byId('result').hidden = false;
}

/**
 * The API's message for a failed shorten. The v1 409 does not say when a taken code frees up;
 * when the code is one of the signed-in owner's own links, its expiry is known and added, as
 * the legacy endpoint words it.
 */
async function failureMessage(failure: unknown, customCode: string, key: string | undefined) {
  const sentence = errorSentence(t, failure, 'shorten');
  if (!(failure instanceof ApiError && failure.status === 409 && customCode && key)) return sentence;
  try {
    const { data } = await callApi<LinkView>(linkPath(customCode), { key });
    const freeAt = Date.parse(data.expiration_date);
    if (freeAt <= Date.now()) return sentence;
    return { field: sentence.field, text: t('errCodeTakenUntil', [formatDateTime(freeAt, language())]) };
  } catch {
    return sentence; // someone else's code: when it frees up is theirs to know
  }
}

/** Copies and says whether it worked. */
export async function copyAndSay(text: string): Promise<void> {
  announce((await copyText(text)) ? t('copied') : t('copyFailed'));
}
