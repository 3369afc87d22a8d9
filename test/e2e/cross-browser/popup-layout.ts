import type { ExtPage } from './extension-under-test.js';

/**
 * History records written straight into the extension's IndexedDB from one of its pages, as
 * earlier syncs left them: links on `server`, one with tags, so the Tag select shows.
 */
export function putSyncedLinks(
  page: Pick<ExtPage, 'evaluate'>,
  server: string,
  siteUrl: (path: string) => string,
): Promise<unknown> {
  const now = Date.now();
  const records = ['trip', 'budget'].map((code) => ({
    id: code,
    code,
    customCode: true,
    originalUrl: siteUrl(`/${code}`),
    shortUrl: `${server}/${code}/`,
    server,
    status: 'synced',
    expire: '1week',
    attempts: 0,
    createdAt: now,
    expiresAt: now + 7 * 86_400_000,
    tags: code === 'trip' ? ['소풍', 'family'] : ['work'],
  }));
  return page.evaluate(`new Promise((done, fail) => {
    const open = indexedDB.open('linklet');
    open.onerror = () => fail(open.error);
    open.onsuccess = () => {
      const tx = open.result.transaction('history', 'readwrite');
      for (const record of ${JSON.stringify(records)}) tx.objectStore('history').put(record);
      tx.oncomplete = () => { open.result.close(); done(true); };
      tx.onerror = () => fail(tx.error);
    };
  })`);
}

/**
 * What is cramped in the popup, in words (none: nothing): a history item whose actions take more
 * than one line (Delete alone on a second), and a Tag select narrower than its longest option's
 * text and the arrow beside it, or past the edge of its row.
 */
export function popupLayoutProblems(popup: Pick<ExtPage, 'evaluate'>): Promise<string[]> {
  return popup.evaluate(`(() => {
    const problems = [];
    for (const item of document.querySelectorAll('#history .history-item')) {
      const tops = new Set([...item.querySelectorAll('.actions > *')].map((el) => Math.round(el.getBoundingClientRect().top)));
      if (tops.size > 1) problems.push(item.dataset.id + ': actions on ' + tops.size + ' lines');
    }
    const select = document.querySelector('#tag-filter');
    if (select && select.getClientRects().length > 0) {
      const style = getComputedStyle(select);
      const context = document.createElement('canvas').getContext('2d');
      context.font = style.font;
      const widest = Math.max(...[...select.options].map((option) => context.measureText(option.text).width));
      const room = select.clientWidth - parseFloat(style.paddingLeft) - widest;
      // The arrow takes some 20 px; the text keeps a few more clear of it.
      if (room < 34) problems.push('the Tag select leaves ' + Math.round(room) + ' px after its longest option');
      const row = select.closest('.row').getBoundingClientRect();
      if (select.getBoundingClientRect().right > row.right + 0.5) problems.push('the Tag select is past its row');
    }
    return problems;
  })()`);
}
