import { afterEach, describe, expect, it, vi } from 'vitest';
import { LinkletError } from '../../core/http/errors.js';
import { createLocalBackend } from '../../extension/backend/create-local-backend.js';
import { createIdbLinkStore } from '../../extension/backend/idb-link-store.js';
import { STORAGE_FULL_MESSAGE } from '../../extension/backend/storage-full.js';
import { entry, freshHistory } from './helpers.js';

const quotaError = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError');

describe('a full disk', () => {
  const dispose: (() => Promise<void>)[] = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    for (const done of dispose.splice(0)) await done();
  });

  it('answers a local shorten with 503 and a message that says what to do, not a 500', async () => {
    const { open, dispose: close } = freshHistory();
    dispose.push(close);
    const handle = createLocalBackend(createIdbLinkStore(open));
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(() => {
      throw quotaError();
    });

    const response = await handle(
      new Request('chrome-extension://test-extension-id/api/v1/shorten', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ original_url: 'https://example.com/a' }),
      }),
    );

    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: 'error', message: STORAGE_FULL_MESSAGE });
  });

  it('rejects a history write with the same message, so the popup shows it', async () => {
    const { history, dispose: close } = freshHistory();
    dispose.push(close);
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(() => {
      throw quotaError();
    });

    const write = history.put(entry());

    await expect(write).rejects.toThrow(LinkletError);
    await expect(write).rejects.toThrow(STORAGE_FULL_MESSAGE);
  });

  it('lets other storage failures through unchanged', async () => {
    const { history, dispose: close } = freshHistory();
    dispose.push(close);
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(() => {
      throw new DOMException('The database connection is closing.', 'InvalidStateError');
    });

    await expect(history.put(entry())).rejects.toThrow('The database connection is closing.');
  });
});
