import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BUILD_ID } from '../../extension/build-id.js';
import { createApiAnswerer } from '../../extension/service/api-answerer.js';
import { type BackgroundApi, createBackgroundClient } from '../../extension/service/background-api.js';
import { LOST_CALL_CHECK_MS, unlessLost } from '../../extension/service/unless-lost.js';

// Chromium can stop the service worker while a page's message is on its way, and then neither
// deliver nor fail it. The page asks the background every second whether it still runs the call;
// a background that twice says no (a new worker, which never got it) ends the wait.

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const never = () => new Promise<never>(() => undefined);
const gone = "Linklet's background stopped before it answered; try again.";

/** A background whose `listHistory` answers when `release` is called, behind the real answerer. */
function slowBackground() {
  let release: (value: unknown) => void = () => undefined;
  const api = {
    listHistory: () => new Promise((resolve) => (release = resolve)),
  } as unknown as BackgroundApi;
  const answer = createApiAnswerer(api);
  const send = vi.fn(async (message: unknown) => structuredClone(await answer(structuredClone(message))));
  return { send, release: (value: unknown) => release(value) };
}

describe('a call the browser lost', () => {
  it('is told to the page as a stopped background once a new worker twice knows nothing of it', async () => {
    const { send: answerRest } = slowBackground();
    // The call itself never arrives; the asks reach a background that never saw it.
    const send = vi.fn((message: { type: string }) =>
      message.type === 'linklet:call' ? never() : answerRest(message),
    );
    const result = createBackgroundClient(send).listHistory();
    const settled = expect(result).rejects.toThrow(gone);
    await vi.advanceTimersByTimeAsync(LOST_CALL_CHECK_MS);
    expect(send.mock.calls.map(([message]) => message.type)).toEqual(['linklet:call', 'linklet:running']);
    await vi.advanceTimersByTimeAsync(LOST_CALL_CHECK_MS);
    await settled;
    expect(send.mock.calls.map(([message]) => message.type)).toEqual([
      'linklet:call',
      'linklet:running',
      'linklet:running',
    ]);
    // Nothing is left asking after the page gave up.
    await vi.advanceTimersByTimeAsync(10 * LOST_CALL_CHECK_MS);
    expect(send).toHaveBeenCalledTimes(3);
  });

  it('keeps waiting on a long call the background says it still runs, and stops asking once answered', async () => {
    const { send, release } = slowBackground();
    const result = createBackgroundClient(send).listHistory();
    await vi.advanceTimersByTimeAsync(30 * LOST_CALL_CHECK_MS);
    expect(
      send.mock.calls.filter(([message]) => (message as { type: string }).type === 'linklet:running'),
    ).toHaveLength(30);
    release(['still here']);
    await expect(result).resolves.toEqual(['still here']);
    const asked = send.mock.calls.length;
    await vi.advanceTimersByTimeAsync(10 * LOST_CALL_CHECK_MS);
    expect(send).toHaveBeenCalledTimes(asked);
  });

  it('names each call, and answers whether it runs only while it does', async () => {
    const { send, release } = slowBackground();
    const result = createBackgroundClient(send).listHistory();
    const call = send.mock.calls[0]?.[0] as { id: string };
    expect(call.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await send({ type: 'linklet:running', id: call.id })).toEqual({ running: true, build: BUILD_ID });
    expect(await send({ type: 'linklet:running', id: 'another' })).toEqual({ running: false, build: BUILD_ID });
    release([]);
    await result;
    expect(await send({ type: 'linklet:running', id: call.id })).toEqual({ running: false, build: BUILD_ID });
  });
});

describe('unlessLost', () => {
  const lost = () => new Error('lost');

  it('waits on while the answers say it runs, say nothing (an earlier build) or fail', async () => {
    const answers: Array<() => Promise<boolean | undefined>> = [
      async () => undefined,
      async () => Promise.reject(new Error('Could not establish connection. Receiving end does not exist.')),
      async () => false,
      async () => true,
      async () => false,
      async () => undefined,
    ];
    const isRunning = vi.fn(() => (answers.shift() ?? (async () => true))());
    let resolve: (value: string) => void = () => undefined;
    const watched = unlessLost(new Promise<string>((r) => (resolve = r)), isRunning, lost);
    await vi.advanceTimersByTimeAsync(8 * LOST_CALL_CHECK_MS);
    expect(isRunning).toHaveBeenCalledTimes(8);
    resolve('answered');
    await expect(watched).resolves.toBe('answered');
  });

  it('gives up after two noes in a row, even while an ask hangs', async () => {
    const answers: Array<() => Promise<boolean | undefined>> = [never, async () => false, async () => false];
    const watched = unlessLost(never(), () => (answers.shift() ?? never)(), lost);
    const settled = expect(watched).rejects.toThrow('lost');
    await vi.advanceTimersByTimeAsync(3 * LOST_CALL_CHECK_MS);
    await settled;
  });

  it("passes the call's own failure through", async () => {
    const failing = unlessLost(Promise.reject(new Error('port closed')), async () => true, lost);
    await expect(failing).rejects.toThrow('port closed');
  });
});
