import { createHandler, type FetchHandler, type HandlerOptions } from '../../core/handler.js';
import type { LinkStore } from '../../core/store/link-store.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';

export const BASE_URL = 'https://sho.rt';
/** 2026-01-31 12:00:00 UTC: the last day of a month, so `1month` shows its clamping. */
export const START = Date.UTC(2026, 0, 31, 12);

export const SECOND = 1000;
export const HOUR = 3600 * SECOND;
export const DAY = 24 * HOUR;

export interface TestApp {
  handler: FetchHandler;
  store: LinkStore;
  /** The injected clock (epoch ms); tests move it with `advance` or set `clock.now`. */
  clock: { now: number; advance(ms: number): void };
  /** Codes `generateCode` hands out next, first in first out. */
  codes: string[];
  /** The length asked of `generateCode` on each call. */
  generatedLengths: number[];
  /** Sends `init` to `path` (relative to the base URL). */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** POSTs `body` (JSON-encoded unless it is already a string) to `path`. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
}

export interface MakeHandlerOptions extends Partial<HandlerOptions> {
  codes?: string[];
}

/** A handler on a memory store with a fixed clock and a queue of generated codes. */
export function makeHandler(options: MakeHandlerOptions = {}): TestApp {
  const { codes: initialCodes = [], ...overrides } = options;
  const codes = [...initialCodes];
  const generatedLengths: number[] = [];
  let fallback = 0;
  const clock = {
    now: START,
    advance(ms: number) {
      clock.now += ms;
    },
  };
  const store = overrides.store ?? createMemoryLinkStore();
  const handler = createHandler({
    baseUrl: BASE_URL,
    now: () => clock.now,
    generateCode: (length) => {
      generatedLengths.push(length);
      // Once the queue is empty, distinct codes of the asked length keep tests independent of it.
      return codes.shift() ?? `g${String(++fallback).padStart(length - 1, 'x')}`;
    },
    ...overrides,
    store,
  });
  const fetch = (path: string, init?: RequestInit) => handler(new Request(`${BASE_URL}${path}`, init));
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  return { handler, store, clock, codes, generatedLengths, fetch, post };
}

/** The parsed JSON body, typed loosely for assertions. */
// biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary JSON.
export async function json(response: Response): Promise<any> {
  expectJson(response);
  return response.json();
}

function expectJson(response: Response): void {
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('application/json')) {
    throw new Error(`expected a JSON response, got ${response.status} with Content-Type '${type}'`);
  }
}

/** The methods of an `Allow` (or `Access-Control-Allow-Methods`) header, sorted. */
export function methodsOf(header: string | null): string[] {
  return (header ?? '')
    .split(',')
    .map((method) => method.trim())
    .filter(Boolean)
    .sort();
}
