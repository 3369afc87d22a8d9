import { poll } from '../poll.js';
/** The browsers the shared specs run in: Chromium (MV3, Playwright) and Firefox (MV2, WebDriver BiDi). */
export type Engine = 'chromium' | 'firefox';

/**
 * A tab or the popup, driven by expressions evaluated in its page. Both drivers can evaluate a
 * string, and little else they offer is alike, so the shared specs use only this.
 */
export interface ExtPage {
  /** Evaluates `expression` in the page (promises awaited) and returns its JSON value. */
  evaluate<T = unknown>(expression: string): Promise<T>;
  /** Polls `expression` until it is truthy and returns that value; fails with `description`. */
  waitFor<T = unknown>(expression: string, description: string, timeout?: number): Promise<T>;
  /** `element.click()` on the first match (throws when nothing matches). */
  click(selector: string): Promise<void>;
  /** Sets an input's or select's value and fires `input` and `change`, as typing would. */
  fill(selector: string, value: string): Promise<void>;
  /** The text of the first match ('' when it has none). */
  text(selector: string): Promise<string>;
  /** `location.href` of the page. */
  url(): Promise<string>;
  /** Waits until the page is at `url` (pages that redirect themselves, e.g. open.html). */
  waitForUrl(url: string): Promise<void>;
  /** Chooses `path` in a file input, as a user picking the file does. */
  setInputFile(selector: string, path: string): Promise<void>;
  /** Uncaught exceptions and console errors seen in the page. */
  errors: string[];
  close(): Promise<void>;
}

/** The built extension in a fresh profile of one browser. */
export interface ExtensionUnderTest {
  engine: Engine;
  /** `chrome-extension://<id>` or `moz-extension://<uuid>`, no trailing slash. */
  origin: string;
  /** A new tab at `url`, loaded. */
  openTab(url: string): Promise<ExtPage>;
  /**
   * The real popup page with no web page to shorten, so it waits for the form: on Chromium the
   * toolbar click on a blank tab, on Firefox (whose toolbar BiDi cannot click) popup.html in a tab.
   */
  openPopup(): Promise<ExtPage>;
  /** Evaluates `expression` in the background, where `self.linklet` holds the menu and sync handlers. */
  background<T = unknown>(expression: string): Promise<T>;
  /** Clicks `selector` on `page` and returns the path of the file the browser saved. */
  download(page: ExtPage, selector: string): Promise<string>;
  /** What the clipboard holds, read from `sitePage` (a tab of the test site). */
  clipboardText(sitePage: ExtPage): Promise<string>;
  /** The tab the extension opened at `url` (e.g. the history's Open button). */
  waitForTab(url: string): Promise<ExtPage>;
  close(): Promise<void>;
}

export interface LaunchOptions {
  /** The browser's UI language, which picks the extension's messages; `en-US` by default. */
  lang?: string;
}

type Evaluate = <T>(expression: string) => Promise<T>;

const element = (selector: string) =>
  `(() => { const el = document.querySelector(${JSON.stringify(selector)}); if (!el) throw new Error('no ' + ${JSON.stringify(selector)} + ' in ' + location.href); return el; })()`;

/** The parts of `ExtPage` that need nothing but `evaluate`, the same in every browser. */
export function expressionPage(
  evaluate: Evaluate,
): Pick<ExtPage, 'waitFor' | 'click' | 'fill' | 'text' | 'url' | 'waitForUrl'> {
  return {
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
    text: (selector) => evaluate<string>(`${element(selector)}.textContent`),
    url: () => evaluate<string>('location.href'),
    async waitForUrl(url) {
      await poll(async () => (await evaluate<string>('location.href')) === url, `the page to be at ${url}`);
    },
  };
}
