import { language, localizePage, t } from '../../extension/i18n.js';
import { codeSegmentOfHash } from '../../extension/open-hash.js';
import { backgroundApi } from '../../extension/pages/background-client.js';
import { backgroundErrorSentence } from '../../ui/background-error-sentence.js';
import { formatDateTime } from '../../ui/format-date.js';

// Local short links land here. Like every other page, it asks the background, which owns the
// links: it resolves the code and counts the click (see `openLocalLink`); the page only goes on,
// or says the link expired or does not exist.
async function main(): Promise<void> {
  localizePage(document);
  const title = document.querySelector('#title') as HTMLElement;
  const detail = document.querySelector('#detail') as HTMLElement;
  try {
    const opening = await backgroundApi().openLocalLink(codeSegmentOfHash(location.hash));
    if (opening.state === 'go') {
      location.replace(opening.url);
      return;
    }
    document.title = title.textContent = opening.state === 'expired' ? t('linkExpiredTitle') : t('linkNotFoundTitle');
    detail.textContent =
      opening.state === 'expired'
        ? t('linkExpiredDetail', [formatDateTime(opening.expiresAt, language())])
        : t('linkNotFoundDetail');
  } catch (error) {
    detail.textContent = backgroundErrorSentence(t, error);
  }
}

window.addEventListener('hashchange', () => location.reload());
void main();
