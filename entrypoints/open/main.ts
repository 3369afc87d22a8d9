import { resolveCode } from '../../core/resolve.js';
import { createIdbLinkStore } from '../../extension/backend/idb-link-store.js';
import { openLinkletDb } from '../../extension/backend/link-db.js';
import { language, localizePage, t } from '../../extension/i18n.js';
import { codeSegmentOfHash } from '../../extension/open-hash.js';
import { formatDateTime } from '../../ui/format-date.js';

/** The longest the page waits for its click to be written before it leaves (leaving may abort the write). */
const CLICK_WAIT_MS = 250;

// Local short links land here: the core's resolve rule on the extension's store, then the same
// outcomes a server gives (go, expired, unknown), as a page.
async function main(): Promise<void> {
  localizePage(document);
  const title = document.querySelector('#title') as HTMLElement;
  const detail = document.querySelector('#detail') as HTMLElement;
  const store = createIdbLinkStore(() => openLinkletDb());
  const resolution = await resolveCode(codeSegmentOfHash(location.hash), store, Date.now());
  // The core only stores web URLs; the check keeps it so even if a store was tampered with.
  if (resolution.state === 'active' && /^https?:/i.test(resolution.link.originalUrl)) {
    // Opening a local link is its click, as a server's 302 is; counting may delay it a moment, never stop it.
    const counted = store.addClick(resolution.link.codeKey).catch(() => {});
    await Promise.race([counted, new Promise((resolve) => setTimeout(resolve, CLICK_WAIT_MS))]);
    location.replace(resolution.link.originalUrl);
    return;
  }
  document.title = title.textContent = resolution.state === 'expired' ? t('linkExpiredTitle') : t('linkNotFoundTitle');
  detail.textContent =
    resolution.state === 'expired'
      ? t('linkExpiredDetail', [formatDateTime(resolution.link.expiresAt, language())])
      : t('linkNotFoundDetail');
}

window.addEventListener('hashchange', () => location.reload());
void main();
