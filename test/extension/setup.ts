// The extension project's setup: an in-memory IndexedDB, and the parts of the extension APIs the
// fake browser leaves out. WXT's plugin already points `wxt/browser` at the fake browser.
import 'fake-indexeddb/auto';
import { beforeEach } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import en from '../../public/_locales/en/messages.json';

const messages: Record<string, { message: string }> = en;

/**
 * `browser.i18n.getMessage` as Chromium answers it from the English catalogue: `$1`…`$9` take the
 * substitutions, `$$` is a dollar sign, and an unknown key is ''.
 */
export function getMessage(key: string, substitutions?: string | string[]): string {
  const entry = messages[key];
  if (!entry) return '';
  const values = substitutions === undefined ? [] : Array.isArray(substitutions) ? substitutions : [substitutions];
  return entry.message.replace(/\$(\$|[1-9])/g, (_, which: string) =>
    which === '$' ? '$' : (values[Number(which) - 1] ?? ''),
  );
}

fakeBrowser.i18n.getMessage = getMessage;
fakeBrowser.i18n.getUILanguage = () => 'en';

// Every test starts from an empty browser: storage, alarms, notifications and listeners.
beforeEach(() => {
  fakeBrowser.reset();
});
