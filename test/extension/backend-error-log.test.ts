import { describe, expect, it, vi } from 'vitest';
import type { LinkStore } from '../../core/store/link-store.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { createBackendErrorLog } from '../../extension/backend/backend-error-log.js';
import { createLocalBackend } from '../../extension/backend/create-local-backend.js';
import { localBase } from '../../extension/backend/local-backend.js';

/** A store whose creates fail as a broken platform would make them fail. */
function brokenStore(): LinkStore {
  const store = createMemoryLinkStore();
  return {
    ...store,
    create: async () => {
      throw new TypeError('can\'t access property "getReader", i is undefined');
    },
  };
}

const shorten = (headers: Record<string, string> = {}) =>
  new Request(`${localBase()}/api/v1/shorten`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ original_url: 'https://example.com/a' }),
  });

describe('the bundled backend error log', () => {
  it('logs an unexpected failure with its request id, which the 500 carries too', async () => {
    const log = vi.fn();
    const handle = createLocalBackend(brokenStore(), createBackendErrorLog(log));
    const response = await handle(shorten());
    expect(response.status).toBe(500);
    const id = response.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(log).toHaveBeenCalledTimes(1);
    const [message, error] = log.mock.calls[0] as [string, unknown];
    expect(message).toBe(`Linklet backend: POST /api/v1/shorten failed (request ${id}):`);
    expect(error).toBeInstanceOf(TypeError);
  });

  it("uses a page's well-formed X-Request-Id and replaces a malformed one", async () => {
    const log = vi.fn();
    const handle = createLocalBackend(brokenStore(), createBackendErrorLog(log));
    expect((await handle(shorten({ 'X-Request-Id': 'popup-42' }))).headers.get('x-request-id')).toBe('popup-42');
    expect(log.mock.calls[0]?.[0]).toContain('(request popup-42)');
    const replaced = (await handle(shorten({ 'X-Request-Id': 'no spaces <here>' }))).headers.get('x-request-id');
    expect(replaced).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs nothing for answers that are not failures', async () => {
    const log = vi.fn();
    const handle = createLocalBackend(createMemoryLinkStore(), createBackendErrorLog(log));
    expect((await handle(shorten())).status).toBe(201);
    expect((await handle(new Request(`${localBase()}/api/v1/shorten`, { method: 'POST', body: '[]' }))).status).toBe(
      400,
    );
    expect(log).not.toHaveBeenCalled();
  });

  it('logs to the console by default', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const response = await createLocalBackend(brokenStore())(shorten());
      expect(consoleError).toHaveBeenCalledWith(
        expect.stringContaining(`(request ${response.headers.get('x-request-id')})`),
        expect.any(TypeError),
      );
    } finally {
      consoleError.mockRestore();
    }
  });
});
