import { localizePage, t } from '../../extension/i18n.js';
import { showTabUrl } from './tab-url.js';

// The popup's first module, kept small on purpose (test/extension/popup-first-module.test.ts):
// the page in its language and the tab's URL first, then the rest of the popup (settings, history,
// tags, QR code, the background's answers) from its own chunk, loaded only once the URL shows.
async function main(): Promise<void> {
  localizePage(document);
  document.title = t('extName');
  const url = await showTabUrl(document.querySelector('#url') as HTMLInputElement);
  const { startPopup } = await import('./popup-app.js');
  await startPopup(url);
}

void main();
