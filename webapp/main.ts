import { byId, showError } from '../ui/dom.js';
import { errorSentence } from '../ui/error-sentence.js';
import { clearMessagesOnNewAction } from './action-messages.js';
import { ApiError } from './api.js';
import { claimMadeHere, hideClaimNote } from './claim-made-here.js';
import { localizePage, t } from './i18n.js';
import { setUpLinksTable } from './links-table.js';
import { setMadeHereSignedIn, setUpMadeHere } from './made-here.js';
import { registerWorker } from './register-worker.js';
import { type Owner, signIn, signOut, storedKey } from './session.js';
import { takeShare } from './share-target.js';
import { setUpShortenForm } from './shorten-form.js';
import { setUpTransfer } from './transfer.js';
import { setUpWebhooks } from './webhooks-panel.js';

// The web app at `/`: shorten for anyone; with an API key, the owner's links. Every text comes
// from the extension's catalogs (public/_locales) in the browser's language.
localizePage(document);
document.title = t('extName');
clearMessagesOnNewAction();

let key: string | undefined;
const currentKey = () => key;
const table = setUpLinksTable(currentKey);
setUpShortenForm({ key: currentKey, onShortened: () => void table.reload() });
takeShare();
registerWorker();
setUpTransfer(currentKey, () => void table.reload());
setUpMadeHere();
const webhooks = setUpWebhooks(currentKey);

const signInForm = byId<HTMLFormElement>('sign-in-form');
const keyInput = byId<HTMLInputElement>('api-key');
const signInError = byId('sign-in-error');

function showSignedIn(owner: Owner | undefined): void {
  signInForm.hidden = owner !== undefined;
  byId('signed-in').hidden = owner === undefined;
  byId('owner').textContent = owner ? t('webSignedInAs', [owner.name]) : '';
  setMadeHereSignedIn(owner !== undefined);
}

signInForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  showError(signInError, '');
  const entered = keyInput.value.trim();
  if (entered === '') {
    showError(signInError, t('webApiKeyRequired'));
    keyInput.focus();
    return;
  }
  try {
    const owner = await signIn(entered);
    key = entered;
    keyInput.value = '';
    showSignedIn(owner);
    await claimMadeHere(entered, owner); // links made here signed out become theirs, then are listed
    await table.reload();
    void webhooks.reload();
    byId('sign-out').focus();
  } catch (failure) {
    showError(signInError, errorSentence(t, failure, 'sign-in').text);
  }
});

byId('sign-out').addEventListener('click', () => {
  signOut();
  key = undefined;
  byId('links-body').replaceChildren();
  webhooks.clear();
  hideClaimNote();
  showSignedIn(undefined);
  keyInput.focus();
});

// A key kept from an earlier visit signs in again; one the server no longer takes is dropped.
const kept = storedKey();
if (kept !== undefined) {
  signIn(kept)
    .then(async (owner) => {
      key = kept;
      showSignedIn(owner);
      await claimMadeHere(kept, owner);
      await table.reload();
      void webhooks.reload();
    })
    .catch((failure: unknown) => {
      if (failure instanceof ApiError && failure.status === 401) signOut(); // revoked: forget it
      showError(signInError, errorSentence(t, failure, 'sign-in').text);
    });
}
