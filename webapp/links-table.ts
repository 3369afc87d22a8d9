import type { LinkView } from '../core/management/links/link-view.js';
import { byId, h, showError } from '../ui/dom.js';
import { errorSentence } from '../ui/error-sentence.js';
import { plural } from '../ui/plural.js';
import { announce } from './announce.js';
import { callApi, linkPath } from './api.js';
import { changeNote } from './change-note.js';
import { confirmDelete } from './confirm-delete.js';
import { copyFromButton } from './copy-button.js';
import { language, t } from './i18n.js';
import { linkDetails } from './link-details.js';
import { linkRow, type RowAction } from './link-row.js';
import { clearRowNotes, showRowNote } from './row-note.js';
import { setUpTagFilter } from './tag-filter.js';
import { setUpTagTools } from './tag-tools.js';

const SEARCH_DELAY_MS = 250;

export interface LinksTable {
  /** Lists the first page again (after a sign-in, a new link or an import). */
  reload(): Promise<void>;
}

/**
 * The owner's links, newest first, a page at a time (`next_cursor`), narrowed by the search and
 * status fields, with each row's actions. Cursors of the pages already seen are kept, so
 * "Previous page" goes back without the API having to page backwards.
 */
export function setUpLinksTable(key: () => string | undefined): LinksTable {
  const body = byId('links-body');
  const search = byId<HTMLInputElement>('search');
  const status = byId<HTMLSelectElement>('status-filter');
  const previous = byId<HTMLButtonElement>('previous-page');
  const next = byId<HTMLButtonElement>('next-page');
  const error = byId('links-error');
  const tagSelect = byId<HTMLSelectElement>('tag-filter');
  const tag = setUpTagFilter(tagSelect, () => {
    tools.update();
    restart();
  });
  // After a rename the list shows the tag's new name; after a delete, every link.
  const tools = setUpTagTools(tag, key, async (chosen) => {
    const signedKey = key();
    if (signedKey === undefined) return;
    tagSelect.value = '';
    await tag.refresh(signedKey);
    if (chosen !== '') tag.choose(chosen);
    else {
      tools.update();
      restart();
    }
  });
  /** The cursor each page seen so far started at (undefined: the first page). */
  let pageStarts: Array<string | undefined> = [undefined];
  let nextCursor: string | null = null;
  let current = 0;
  /**
   * Details rows left open, by code. A reload (after an action on another row, a search) puts the
   * same row back, so what was typed in it and the focus inside it survive; a save in it closes it.
   */
  const openDetails = new Map<string, HTMLTableRowElement>();
  let loading = 0;

  const load = async (page: number) => {
    const signedKey = key();
    if (signedKey === undefined) return;
    const ticket = ++loading; // a slower answer to an older query must not overwrite a newer one
    const query = new URLSearchParams({ status: status.value });
    if (search.value.trim() !== '') query.set('search', search.value.trim());
    if (tag.value() !== '') query.set('tag', tag.value());
    const cursor = pageStarts[page];
    if (cursor !== undefined) query.set('cursor', cursor);
    try {
      const { data } = await callApi<{ links: LinkView[]; next_cursor: string | null }>(`api/v1/links?${query}`, {
        key: signedKey,
      });
      if (ticket !== loading) return;
      showError(error, '');
      pageStarts = pageStarts.slice(0, page + 1);
      nextCursor = data.next_cursor;
      render(data.links, page);
    } catch (failure) {
      if (ticket === loading) showError(error, errorSentence(t, failure, 'link').text);
    }
  };

  const render = (links: LinkView[], page: number) => {
    const count = plural(t, language(), links.length, { one: 'webLinkCountOne', other: 'webLinkCountOther' });
    byId('links-caption').textContent = `${t('webTableCaption', [String(page + 1)])} · ${count}`;
    const empty = byId('links-empty');
    empty.hidden = links.length > 0;
    // "No links yet" only when nothing narrows the list; otherwise the search found nothing.
    const narrowed = search.value.trim() !== '' || status.value !== 'all' || tag.value() !== '';
    empty.textContent = narrowed ? t('webNoLinks') : t('webNoLinksYet');
    const active = document.activeElement;
    body.replaceChildren(...links.flatMap((link, index) => rowsOf(link, `details-${page}-${index}`)));
    for (const code of openDetails.keys()) if (!links.some((link) => link.code === code)) openDetails.delete(code);
    // Moving a kept details row out and back in blurs what had focus in it.
    if (active instanceof HTMLElement && active.isConnected && document.activeElement !== active) {
      active.focus({ preventScroll: true });
    }
    previous.disabled = page === 0;
    next.disabled = nextCursor === null;
    previous.onclick = () => void load(page - 1);
    next.onclick = () => {
      pageStarts[page + 1] = nextCursor ?? undefined;
      void load(page + 1);
    };
    current = page;
  };

  /** A link's row and its (hidden) details row. */
  const rowsOf = (link: LinkView, detailsId: string): HTMLTableRowElement[] => {
    const kept = openDetails.get(link.code);
    const details = kept ?? h('tr', { class: 'details-row', hidden: true });
    details.id = detailsId;
    const row = linkRow(
      link,
      detailsId,
      (action) => void act(action, link, row, details),
      (chosen) => tag.choose(chosen),
    );
    if (kept) showToggle(row, true);
    return [row, details];
  };

  const showToggle = (row: HTMLTableRowElement, open: boolean) => {
    const toggle = row.querySelector<HTMLButtonElement>('[data-action="details"]');
    toggle?.setAttribute('aria-expanded', String(open));
    if (toggle) toggle.textContent = open ? t('webHide') : t('webDetails');
  };

  const act = async (action: RowAction, link: LinkView, row: HTMLTableRowElement, details: HTMLTableRowElement) => {
    const signedKey = key();
    if (signedKey === undefined) return;
    const buttonOf = (name: RowAction) => row.querySelector<HTMLButtonElement>(`[data-action="${name}"]`);
    if (action === 'copy') {
      const copy = buttonOf('copy');
      return copy ? copyFromButton(copy, link.short_url) : undefined;
    }
    if (action === 'renew') {
      // Renew is chosen in the details (how long for); the row's button opens them there.
      if (details.hidden) await act('details', link, row, details);
      details.querySelector<HTMLSelectElement>('select.renew-duration')?.focus();
      return;
    }
    if (action === 'details') {
      const open = details.hidden;
      details.hidden = !open;
      showToggle(row, open);
      if (!open) openDetails.delete(link.code);
      else {
        openDetails.set(link.code, details);
        const panel = linkDetails(link, {
          key: signedKey,
          onChanged: async (changed, what) => {
            openDetails.delete(link.code); // saved: the list reloads with the link's new values, details closed
            const note = changeNote(changed, what);
            announce(
              what === undefined || what === 'target'
                ? t('webTargetSaved', [changed.short_url, changed.original_url])
                : note,
            );
            if (what === 'labels') await tag.refresh(signedKey);
            if (what === 'visits-deleted') openDetails.delete(link.code);
            await load(current);
            showRowNote(body, link.code, note, 'done');
          },
        });
        details.replaceChildren(h('td', { colspan: '6' }, panel));
      }
      return;
    }
    clearRowNotes(body);
    showNote('');
    let note: { text: string; kind: 'done' | 'error' } | undefined;
    try {
      if (action === 'delete') {
        if (!(await confirmDelete(link.short_url))) return;
        await callApi(linkPath(link.code), { method: 'DELETE', key: signedKey });
        announce(t('webDeleted', [link.short_url]));
        showNote(t('webDeleted', [link.short_url]));
      } else {
        await callApi(linkPath(link.code), {
          method: 'PATCH',
          key: signedKey,
          body: { disabled: action === 'disable' },
        });
        announce(t(action === 'disable' ? 'webDisabled' : 'webEnabled', [link.short_url]));
        note = { text: t(action === 'disable' ? 'webDisabledNote' : 'webEnabledNote'), kind: 'done' };
      }
      showError(error, '');
    } catch (failure) {
      note = { text: errorSentence(t, failure, 'link').text, kind: 'error' };
    }
    await load(current);
    if (note) showRowNote(body, link.code, note.text, note.kind);
    // A failed delete leaves the row, so its note is there; a row already gone says it above the list.
    if (note?.kind === 'error' && !body.querySelector('.row-note')) showError(error, note.text);
    // The acted-on button went with the reload: put the keyboard on the same row's new toggle, or
    // on the search. Focus the person has moved elsewhere meanwhile stays where they put it.
    if (document.activeElement !== null && document.activeElement !== document.body) return;
    const again = body.querySelector<HTMLButtonElement>(
      `tr[data-code="${CSS.escape(link.code)}"] [data-action="${action === 'disable' ? 'enable' : action === 'enable' ? 'disable' : 'copy'}"]`,
    );
    (again ?? search).focus();
  };

  /** What a delete did: its row is gone, so it is said above the list. */
  const showNote = (text: string) => {
    const element = byId('links-note');
    element.textContent = text;
    element.hidden = text === '';
  };

  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  const restart = () => {
    clearTimeout(searchTimer);
    pageStarts = [undefined];
    void load(0);
  };
  search.addEventListener('input', () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(restart, SEARCH_DELAY_MS);
  });
  status.addEventListener('change', restart);
  byId<HTMLFormElement>('filter-form').addEventListener('submit', (event) => {
    event.preventDefault();
    restart();
  });

  return {
    reload: async () => {
      pageStarts = [undefined];
      const signedKey = key();
      if (signedKey !== undefined) await tag.refresh(signedKey);
      await load(0);
    },
  };
}
