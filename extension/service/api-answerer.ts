import { BUILD_ID } from '../build-id.js';
import { extensionVersion } from '../extension-version.js';
import {
  type ApiCall,
  type ApiReply,
  type BackgroundApi,
  type BuildQuery,
  isApiCall,
  type RunningQuery,
} from './background-api.js';

/** The background side of a call: runs it on `api` and flattens the outcome into a reply, naming its build. */
async function answerApiCall(call: ApiCall, api: BackgroundApi): Promise<ApiReply> {
  try {
    const method = api[call.method] as (...args: unknown[]) => Promise<unknown>;
    return { ok: true, value: await method(...call.args), ...builtAs() };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const status = (error as { status?: unknown }).status;
    return typeof status === 'number'
      ? { ok: false, message, status, ...builtAs() }
      : { ok: false, message, ...builtAs() };
  }
}

/** What a reply says of the background: its build, and its manifest's version where it has one. */
function builtAs(): { build: string; version?: string } {
  const version = extensionVersion();
  return version === undefined ? { build: BUILD_ID } : { build: BUILD_ID, version };
}

/**
 * The background's one message listener: answers pages' calls on `api`, which build it is, and
 * whether a call is still running (so a page can tell a call the browser lost from a slow one).
 * Anything else gets no answer from it, as the browser expects of listeners a message is not for.
 */
export function createApiAnswerer(api: BackgroundApi): (message: unknown) => Promise<unknown> | undefined {
  const running = new Set<string>();
  return (message) => {
    if (isApiCall(message)) {
      const { id } = message;
      if (id === undefined) return answerApiCall(message, api);
      running.add(id);
      return answerApiCall(message, api).finally(() => running.delete(id));
    }
    if (isTyped<BuildQuery>(message, 'linklet:build')) return Promise.resolve(builtAs());
    if (isTyped<RunningQuery>(message, 'linklet:running') && typeof message.id === 'string') {
      return Promise.resolve({ running: running.has(message.id), build: BUILD_ID });
    }
    return undefined;
  };
}

function isTyped<M extends { type: string }>(message: unknown, type: M['type']): message is M {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;
}
