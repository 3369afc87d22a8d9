import { browser } from 'wxt/browser';
import { isCopyMessage } from '../../extension/service/messages.js';

// Chromium's service worker has no clipboard; the background opens this offscreen document and
// sends it the text. `execCommand('copy')` works here without focus, the async API does not.
browser.runtime.onMessage.addListener((message: unknown) => {
  if (!isCopyMessage(message)) return undefined;
  const area = document.querySelector('#clipboard') as HTMLTextAreaElement;
  area.value = message.text;
  area.select();
  return Promise.resolve(document.execCommand('copy'));
});
