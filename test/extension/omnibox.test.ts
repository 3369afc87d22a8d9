import { describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { HistoryEntry } from '../../extension/history/history-entry.js';
import { handleOmniboxInput, registerOmnibox } from '../../extension/service/omnibox.js';
import { escapeSuggestionXml, omniboxSuggestion, omniboxTarget } from '../../extension/service/omnibox-words.js';
import { entry, SERVER } from './helpers.js';

// The omnibox keyword's pure part: what Enter shortens and what the suggestion line says.

describe('omniboxTarget', () => {
  it.each([
    ['', 'https://example.com/tab', 'https://example.com/tab'],
    ['   ', 'https://example.com/tab', 'https://example.com/tab'],
    ['example.com/page', 'https://example.com/tab', 'https://example.com/page'],
    [' https://example.com/a?b=1 ', undefined, 'https://example.com/a?b=1'],
    ['http://example.com', undefined, 'http://example.com'],
    ['', undefined, undefined],
  ])('%j (tab %s) → %s', (text, tab, target) => {
    expect(omniboxTarget(text, tab)).toBe(target);
  });
});

describe('omniboxSuggestion', () => {
  it('names the tab or the URL, and says copy only when a server is set', () => {
    expect(omniboxSuggestion('', true)).toEqual({ key: 'omniboxTab', values: [] });
    expect(omniboxSuggestion(' ', false)).toEqual({ key: 'omniboxTabLocal', values: [] });
    expect(omniboxSuggestion('example.com', true)).toEqual({ key: 'omniboxUrl', values: ['https://example.com'] });
    expect(omniboxSuggestion('example.com', false)).toEqual({
      key: 'omniboxUrlLocal',
      values: ['https://example.com'],
    });
  });

  it('escapes what XML would read as markup', () => {
    expect(escapeSuggestionXml('https://a.b/?x=1&y=<2>')).toBe('https://a.b/?x=1&#38;y=&#60;2&#62;');
  });
});

describe('handleOmniboxInput', () => {
  const deps = () => ({
    shorten: vi.fn(
      async (url: string): Promise<HistoryEntry> =>
        entry({ originalUrl: url, status: 'synced', shortUrl: `${SERVER}/made123/`, code: 'made123' }),
    ),
    copy: vi.fn(async (_text: string) => true),
    notify: vi.fn(async (_title: string, _message: string) => {}),
    autoCopy: vi.fn(async () => true),
    hasServer: vi.fn(async () => true),
  });

  it('shortens the typed URL and copies it', async () => {
    const d = deps();
    await handleOmniboxInput('example.com/typed', d, 'https://example.com/tab');
    expect(d.shorten).toHaveBeenCalledExactlyOnceWith('https://example.com/typed');
    expect(d.copy).toHaveBeenCalledExactlyOnceWith(`${SERVER}/made123/`);
    expect(d.notify).toHaveBeenCalledExactlyOnceWith('Short URL copied', `${SERVER}/made123/`);
  });

  it('shortens the tab when nothing is typed', async () => {
    const d = deps();
    await handleOmniboxInput('', d, 'https://example.com/tab');
    expect(d.shorten).toHaveBeenCalledExactlyOnceWith('https://example.com/tab');
  });
});

describe('registerOmnibox', () => {
  it("sets each keystroke's line, then sends the keystroke's (empty) suggestions, so Chromium draws it at once", async () => {
    // The fake browser has no omnibox: this one records what the background asks of it, in order.
    const calls: string[] = [];
    let onChanged: ((text: string, suggest: (list: unknown[]) => void) => void) | undefined;
    const listener = { addListener: () => {} };
    Object.assign(fakeBrowser, {
      omnibox: {
        onInputStarted: listener,
        onInputEntered: listener,
        onInputChanged: { addListener: (fn: typeof onChanged) => (onChanged = fn) },
        setDefaultSuggestion: async ({ description }: { description: string }) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          calls.push(`line: ${description}`);
        },
      },
    });
    registerOmnibox({
      shorten: vi.fn(),
      copy: vi.fn(),
      notify: vi.fn(),
      autoCopy: vi.fn(async () => true),
      hasServer: async () => true,
    });
    const suggested = new Promise<void>((resolve) =>
      onChanged?.('example.com/typed', (list) => {
        calls.push(`suggestions: ${list.length}`);
        resolve();
      }),
    );
    await suggested;
    // Chromium draws the default line when suggestions arrive: after the line is set, never before.
    expect(calls).toEqual([expect.stringMatching(/^line: .*https:\/\/example\.com\/typed/), 'suggestions: 0']);
  });
});
