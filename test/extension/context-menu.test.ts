import { describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ApiError } from '../../client/api-errors.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { createLocalBackend } from '../../extension/backend/create-local-backend.js';
import { localBase, routeToHandler } from '../../extension/backend/local-backend.js';
import type { HistoryEntry } from '../../extension/history/history-entry.js';
import {
  COMMAND_SHORTEN_TAB,
  createContextMenus,
  handleCommand,
  handleContextMenuClick,
  MENU_SHORTEN_LINK,
  MENU_SHORTEN_PAGE,
} from '../../extension/service/context-menu.js';
import { type AnnounceDeps, notify } from '../../extension/service/shorten-and-announce.js';
import { shortenLink } from '../../extension/service/shorten-link.js';
import { DEFAULT_SETTINGS } from '../../extension/settings.js';
import { entry, freshHistory, SERVER } from './helpers.js';

const TITLES = {
  copied: 'Short URL copied',
  made: 'Short URL made',
  pending: 'Short URL reserved: it syncs when the server is back',
  local: 'Short URL made, for this browser only',
  failed: 'Could not shorten',
};
const NOT_SHORTENABLE = 'Only http and https pages can be shortened.';
const LOCAL_NOT_COPIED =
  "Not copied: no one else can open it. Set a server in Linklet's options to get links anyone can open.";
const PENDING_NOT_COPIED = 'Not copied: the server is not answering. Linklet makes the short URL when it answers.';

/** Deps that record what the menu did: shortening gives a synced link for the URL it was given. */
function fakeDeps(overrides: Partial<AnnounceDeps> = {}) {
  const deps = {
    shorten: vi.fn(
      async (url: string): Promise<HistoryEntry> =>
        entry({ originalUrl: url, status: 'synced', shortUrl: `${SERVER}/made123/`, code: 'made123' }),
    ),
    copy: vi.fn(async (_text: string) => true),
    notify: vi.fn(async (_title: string, _message: string) => {}),
    autoCopy: vi.fn(async () => true),
    ...overrides,
  };
  return deps;
}

describe('handleContextMenuClick', () => {
  it('"Shorten link" shortens the link under the pointer, copies and announces it', async () => {
    const deps = fakeDeps();
    const made = await handleContextMenuClick(
      { menuItemId: MENU_SHORTEN_LINK, linkUrl: 'https://example.com/linked', pageUrl: 'https://example.com/page' },
      { url: 'https://example.com/tab' },
      deps,
    );
    expect(deps.shorten).toHaveBeenCalledExactlyOnceWith('https://example.com/linked');
    expect(made).toMatchObject({ originalUrl: 'https://example.com/linked', shortUrl: `${SERVER}/made123/` });
    expect(deps.copy).toHaveBeenCalledExactlyOnceWith(`${SERVER}/made123/`);
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith(TITLES.copied, `${SERVER}/made123/`);
  });

  it.each([
    [
      'the page URL',
      { pageUrl: 'https://example.com/page' },
      { url: 'https://example.com/tab' },
      'https://example.com/page',
    ],
    ["the tab's URL when the page URL is missing", {}, { url: 'https://example.com/tab' }, 'https://example.com/tab'],
  ])('"Shorten this page" shortens %s', async (_, info, tab, expected) => {
    const deps = fakeDeps();
    await handleContextMenuClick({ menuItemId: MENU_SHORTEN_PAGE, ...info }, tab, deps);
    expect(deps.shorten).toHaveBeenCalledExactlyOnceWith(expected);
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith(TITLES.copied, `${SERVER}/made123/`);
  });

  it('ignores an item it does not own', async () => {
    const deps = fakeDeps();
    const result = await handleContextMenuClick(
      { menuItemId: 'someone-else', linkUrl: 'https://example.com' },
      { url: 'https://example.com' },
      deps,
    );
    expect(result).toBeUndefined();
    expect(deps.shorten).not.toHaveBeenCalled();
    expect(deps.notify).not.toHaveBeenCalled();
  });

  it.each([
    ['a javascript: link', { menuItemId: MENU_SHORTEN_LINK, linkUrl: 'javascript:alert(1)' }],
    ['a mailto: link', { menuItemId: MENU_SHORTEN_LINK, linkUrl: 'mailto:a@example.com' }],
    ['a link without a URL', { menuItemId: MENU_SHORTEN_LINK }],
    ['a browser page', { menuItemId: MENU_SHORTEN_PAGE, pageUrl: 'chrome://settings/' }],
    ['a file', { menuItemId: MENU_SHORTEN_PAGE, pageUrl: 'file:///home/me/notes.txt' }],
  ])('tells the user it cannot shorten %s, without trying', async (_, info) => {
    const deps = fakeDeps();
    expect(await handleContextMenuClick(info, undefined, deps)).toBeUndefined();
    expect(deps.shorten).not.toHaveBeenCalled();
    expect(deps.copy).not.toHaveBeenCalled();
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith(TITLES.failed, NOT_SHORTENABLE);
  });

  it("announces a refused link with the API's message", async () => {
    const message = "custom_code 'x' is already in use; choose another code.";
    const deps = fakeDeps({ shorten: vi.fn(() => Promise.reject(new ApiError(409, message))) });
    const result = await handleContextMenuClick(
      { menuItemId: MENU_SHORTEN_LINK, linkUrl: 'https://example.com' },
      undefined,
      deps,
    );
    expect(result).toBeUndefined();
    expect(deps.copy).not.toHaveBeenCalled();
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith(TITLES.failed, message);
  });

  it.each([
    ['rejects', () => Promise.reject(new Error('Document is not focused.'))],
    ['is refused', () => Promise.resolve(false)],
  ])('still returns and announces the link when copying %s', async (_, copy) => {
    const deps = fakeDeps({ copy: vi.fn(copy) });
    const made = await handleContextMenuClick(
      { menuItemId: MENU_SHORTEN_LINK, linkUrl: 'https://example.com' },
      undefined,
      deps,
    );
    expect(made?.shortUrl).toBe(`${SERVER}/made123/`);
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith(TITLES.made, `${SERVER}/made123/`);
  });

  it('does not copy when auto-copy is off', async () => {
    const deps = fakeDeps({ autoCopy: vi.fn(async () => false) });
    await handleContextMenuClick({ menuItemId: MENU_SHORTEN_LINK, linkUrl: 'https://example.com' }, undefined, deps);
    expect(deps.copy).not.toHaveBeenCalled();
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith(TITLES.made, `${SERVER}/made123/`);
  });

  it('says a pending link is reserved, and copies nothing: its short URL does not exist yet', async () => {
    const deps = fakeDeps({ shorten: vi.fn(async (url: string) => entry({ originalUrl: url, status: 'pending' })) });
    await handleContextMenuClick({ menuItemId: MENU_SHORTEN_LINK, linkUrl: 'https://example.com' }, undefined, deps);
    expect(deps.copy).not.toHaveBeenCalled();
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith(TITLES.pending, PENDING_NOT_COPIED);
  });

  it('never copies a local link unasked: it says how to get one anyone can open', async () => {
    const local = entry({ status: 'local', server: null, shortUrl: 'chrome-extension://abc/open.html#/abc2345/' });
    const deps = fakeDeps({ shorten: vi.fn(async () => local) });
    await handleContextMenuClick({ menuItemId: MENU_SHORTEN_LINK, linkUrl: 'https://example.com' }, undefined, deps);
    expect(deps.copy).not.toHaveBeenCalled();
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith(TITLES.local, LOCAL_NOT_COPIED);
  });

  it('records the link in the history with the real local backend', async () => {
    const { history, dispose } = freshHistory();
    const handle = createLocalBackend(createMemoryLinkStore());
    const deps = fakeDeps({
      shorten: (url) =>
        shortenLink(
          { url, expire: DEFAULT_SETTINGS.defaultExpire },
          {
            settings: DEFAULT_SETTINGS,
            history,
            localFetch: routeToHandler(handle, localBase()),
            localBase: localBase(),
          },
          true,
        ),
    });
    const made = await handleContextMenuClick(
      { menuItemId: MENU_SHORTEN_PAGE, pageUrl: 'https://example.com/article' },
      undefined,
      deps,
    );
    expect(made?.status).toBe('local');
    expect(await history.list()).toEqual([made]);
    expect(deps.copy).not.toHaveBeenCalled();
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith(TITLES.local, LOCAL_NOT_COPIED);
    await dispose();
  });
});

describe('handleCommand', () => {
  it('shortens the current tab on the shortcut', async () => {
    const deps = fakeDeps();
    const made = await handleCommand(COMMAND_SHORTEN_TAB, { url: 'https://example.com/tab' }, deps);
    expect(made?.originalUrl).toBe('https://example.com/tab');
    expect(deps.shorten).toHaveBeenCalledExactlyOnceWith('https://example.com/tab');
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith(TITLES.copied, `${SERVER}/made123/`);
  });

  it('ignores other commands', async () => {
    const deps = fakeDeps();
    expect(await handleCommand('_execute_action', { url: 'https://example.com' }, deps)).toBeUndefined();
    expect(deps.shorten).not.toHaveBeenCalled();
    expect(deps.notify).not.toHaveBeenCalled();
  });

  it('tells the user when the tab cannot be read', async () => {
    const deps = fakeDeps();
    expect(await handleCommand(COMMAND_SHORTEN_TAB, undefined, deps)).toBeUndefined();
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith(TITLES.failed, NOT_SHORTENABLE);
  });
});

describe('createContextMenus', () => {
  it('registers "Shorten link" on links and "Shorten this page" on pages', () => {
    const create = vi.spyOn(fakeBrowser.contextMenus, 'create').mockImplementation(() => 1);
    createContextMenus();
    expect(create.mock.calls.map(([properties]) => properties)).toEqual([
      { id: MENU_SHORTEN_LINK, title: 'Shorten link', contexts: ['link'] },
      { id: MENU_SHORTEN_PAGE, title: 'Shorten this page', contexts: ['page'] },
    ]);
    create.mockRestore();
  });
});

describe('notify', () => {
  it('shows a basic notification with the extension icon', async () => {
    await notify(TITLES.copied, `${SERVER}/made123/`);
    expect(Object.values(await fakeBrowser.notifications.getAll())).toEqual([
      {
        type: 'basic',
        iconUrl: 'chrome-extension://test-extension-id/icon/128.png',
        title: TITLES.copied,
        message: `${SERVER}/made123/`,
      },
    ]);
  });
});
