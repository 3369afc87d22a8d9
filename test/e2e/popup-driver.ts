import { writeFile } from 'node:fs/promises';
import type { CDPSession, Page } from '@playwright/test';
import type { ExtensionBrowser } from './launch-extension.js';
import { poll } from './poll.js';

/**
 * The real toolbar popup, driven over CDP. Playwright does not hand out the popup as a `Page`, so
 * the popup's target is attached with `flatten: false` and every command is a message to it;
 * page code runs from strings through `Runtime.evaluate`.
 */
export interface Popup {
  targetId: string;
  /** Evaluates `expression` in the popup (promises awaited) and returns its JSON value. */
  evaluate<T = unknown>(expression: string): Promise<T>;
  /** Polls `expression` until it is truthy and returns that value; fails with `description`. */
  waitFor<T = unknown>(expression: string, description: string, timeout?: number): Promise<T>;
  /** `element.click()` on the first match (throws when nothing matches). */
  click(selector: string): Promise<void>;
  /** Sets an input's or select's value and fires `input` and `change`, as typing would. */
  fill(selector: string, value: string): Promise<void>;
  /** A real key press through the browser's input pipeline (focus moves, forms submit). */
  press(key: 'Tab' | 'Enter'): Promise<void>;
  /** Types into the focused element through the input pipeline. */
  insertText(text: string): Promise<void>;
  /** A PNG of the popup as the user sees it. */
  screenshot(path: string): Promise<void>;
  /** Uncaught exceptions and console errors seen in the popup since it was attached. */
  errors: string[];
  close(): Promise<void>;
}

/** CDP key descriptions; `text` makes the key type a character (Enter's submits a form). */
const KEYS: Record<'Tab' | 'Enter', { key: string; code: string; windowsVirtualKeyCode: number; text?: string }> = {
  Tab: { key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9 },
  Enter: { key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, text: '\r' },
};

interface CdpReply {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
}

/**
 * Clicks the extension's toolbar button on `page`'s tab (CDP `Extensions.triggerAction`, which
 * needs `--enable-unsafe-extension-debugging`) and attaches to the popup that opens. The popup
 * gets `activeTab` on that tab, exactly as after a user's click.
 */
export async function openPopup(ext: ExtensionBrowser, page: Page): Promise<Popup> {
  const browser = ext.context.browser();
  if (!browser) throw new Error('The persistent context has no Browser to open a CDP session on.');
  const cdp = await browser.newBrowserCDPSession();
  try {
    await page.bringToFront();
    const popupUrl = `${ext.origin}/popup.html`;
    const before = new Set((await popupTargets(cdp, popupUrl)).map((target) => target.targetId));
    const { targetInfos: tabs } = await cdp.send('Target.getTargets', { filter: [{ type: 'tab' }] });
    // triggerAction wants the tab's target, which only its URL ties to the Playwright page.
    const [tab, ...others] = tabs.filter((candidate) => candidate.url === page.url());
    if (!tab || others.length > 0) {
      throw new Error(`Expected one tab at ${page.url()}, found ${others.length + (tab ? 1 : 0)}; use unique URLs.`);
    }
    await cdp.send('Extensions.triggerAction', { id: ext.extensionId, targetId: tab.targetId });
    const targetId = await poll(async () => {
      const opened = (await popupTargets(cdp, popupUrl)).find((target) => !before.has(target.targetId));
      return opened?.targetId;
    }, 'the popup to open after the toolbar click');
    return await attach(cdp, targetId);
  } catch (error) {
    await cdp.detach().catch(() => undefined);
    throw error;
  }
}

async function popupTargets(cdp: CDPSession, popupUrl: string) {
  const { targetInfos } = await cdp.send('Target.getTargets');
  return targetInfos.filter((target) => target.type === 'page' && target.url.startsWith(popupUrl));
}

async function attach(cdp: CDPSession, targetId: string): Promise<Popup> {
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: false });
  const waiting = new Map<number, { resolve: (reply: CdpReply) => void; reject: (error: Error) => void }>();
  const errors: string[] = [];
  let nextId = 1;
  cdp.on('Target.receivedMessageFromTarget', (event) => {
    if (event.sessionId !== sessionId) return;
    const reply = JSON.parse(event.message) as CdpReply;
    if (reply.id !== undefined) {
      waiting.get(reply.id)?.resolve(reply);
      waiting.delete(reply.id);
    } else if (reply.method === 'Runtime.exceptionThrown') {
      const details = reply.params?.exceptionDetails as { text?: string; exception?: { description?: string } };
      errors.push(details.exception?.description ?? details.text ?? 'exception');
    } else if (reply.method === 'Runtime.consoleAPICalled' && reply.params?.type === 'error') {
      const args = reply.params.args as Array<{ value?: unknown; description?: string }>;
      errors.push(args.map((arg) => arg.description ?? String(arg.value)).join(' '));
    }
  });

  // A popup that closes (the user clicked away, or it opened a tab) answers nothing more.
  cdp.on('Target.detachedFromTarget', (event) => {
    if (event.sessionId !== sessionId) return;
    for (const { reject } of waiting.values()) reject(new Error('The popup closed.'));
    waiting.clear();
  });

  async function send(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const id = nextId++;
    const reply = new Promise<CdpReply>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`${method}: no answer from the popup in 15 s`));
      }, 15_000).unref();
    });
    await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
    const { result, error } = await reply;
    if (error) throw new Error(`${method} failed in the popup: ${error.message}`);
    return result ?? {};
  }

  async function evaluate<T>(expression: string): Promise<T> {
    const result = (await send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true })) as {
      result: { value?: unknown };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    };
    if (result.exceptionDetails) {
      const { exception, text } = result.exceptionDetails;
      throw new Error(`In the popup, ${expression}\nthrew ${exception?.description ?? text}`);
    }
    return result.result.value as T;
  }

  async function key(name: keyof typeof KEYS): Promise<void> {
    const { text, ...keyInfo } = KEYS[name];
    await send(
      'Input.dispatchKeyEvent',
      text ? { type: 'keyDown', text, ...keyInfo } : { type: 'rawKeyDown', ...keyInfo },
    );
    await send('Input.dispatchKeyEvent', { type: 'keyUp', ...keyInfo });
  }

  await send('Runtime.enable');
  const element = (selector: string) =>
    `(() => { const el = document.querySelector(${JSON.stringify(selector)}); if (!el) throw new Error('no ' + ${JSON.stringify(selector)} + ' in the popup'); return el; })()`;

  return {
    targetId,
    errors,
    evaluate,
    waitFor: (expression, description, timeout) => poll(() => evaluate(expression), description, timeout),
    async click(selector) {
      await evaluate(`${element(selector)}.click()`);
    },
    async fill(selector, value) {
      await evaluate(`(() => {
        const el = ${element(selector)};
        el.focus();
        el.value = ${JSON.stringify(value)};
        el.dispatchEvent(new Event('input', { bubbles: true }));
        el.dispatchEvent(new Event('change', { bubbles: true }));
      })()`);
    },
    press: key,
    async insertText(text) {
      await send('Input.insertText', { text });
    },
    async screenshot(path) {
      // Headless Chromium gives popups a fixed window; a headed one sizes it to the content, at
      // most 800 × 600. Capture that size, as a user sees the popup.
      const { width, height } = await evaluate<{ width: number; height: number }>(`(() => {
        const margin = parseFloat(getComputedStyle(document.body).marginLeft) || 0;
        return {
          width: Math.min(Math.ceil(document.body.getBoundingClientRect().width + 2 * margin), 800),
          height: Math.min(document.documentElement.scrollHeight, 600),
        };
      })()`);
      const { data } = (await send('Page.captureScreenshot', {
        format: 'png',
        captureBeyondViewport: true,
        clip: { x: 0, y: 0, width, height, scale: 1 },
      })) as { data: string };
      await writeFile(path, Buffer.from(data, 'base64'));
    },
    async close() {
      await cdp.send('Target.closeTarget', { targetId }).catch(() => undefined);
      await cdp.detach().catch(() => undefined);
    },
  };
}
