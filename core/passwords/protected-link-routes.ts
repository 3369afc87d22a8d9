import type { Answer } from '../http/answer.js';
import type { ErrorAudience } from '../http/error-answer.js';
import type { RawVisit } from '../management/visits/visits.js';
import { type ClickRecorder, isClick } from '../rules/clicks.js';
import type { LinkletSettings } from '../settings.js';
import type { Link } from '../store/link-store.js';
import { isPostFromOwnOrigin } from './own-page-post.js';
import { createPasswordTries, type PasswordTries } from './password-tries.js';
import { answerPasswordAttempt } from './protected-link.js';

const FORM_TYPE = 'application/x-www-form-urlencoded';

/** What a protected short URL's answer needs of its request. */
export interface ProtectedRequest {
  request: Request;
  /** Who the client is, as the adapter counts clients (`RequestEnv.client`). */
  client: string | undefined;
  audience: ErrorAudience;
  /** The body's text of a POST (read under the body limit); undefined for GET and HEAD. */
  body?: string;
  /** The raw strings of its visit, when visits are recorded: a click it opens is a visit like any other. */
  visit?: RawVisit | undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * `X-Link-Password` as the client wrote it: header values reach the handler a byte per character
 * (Latin-1), so a password sent as UTF-8 (Hangul, say) is decoded here; other text is kept as is.
 */
export function headerPassword(value: string | null): string | undefined {
  if (value === null) return undefined;
  // Only a value of bytes (no code point above U+00FF) with some above ASCII can be UTF-8 read as Latin-1.
  if (!/[\x80-\xff]/.test(value) || /[\u0100-\uffff]/.test(value)) return value;
  try {
    return utf8.decode(Uint8Array.from(value, (ch) => ch.charCodeAt(0)));
  } catch {
    return value;
  }
}

/** The `password` field of a form POST's body, if it is a form. */
function formPasswordOf(request: Request, body: string | undefined): string | undefined {
  if (body === undefined || !request.headers.get('content-type')?.toLowerCase().startsWith(FORM_TYPE)) return undefined;
  return new URLSearchParams(body).get('password') ?? undefined;
}

/**
 * The handler's answerer for protected links, counting tries in `tries` (the adapter's shared
 * count) or, when none is given, in this process's memory (`createPasswordTries`). `X-Link-Password` is read on every method; a form POST's
 * `password` field otherwise, unless another site's page posted it (`isPostFromOwnOrigin`). A right password's redirect is a click: a GET's by the usual rule
 * (`isClick`), a POST's always (a form is sent by a person, never prefetched).
 */
export function createProtectedLinkAnswerer(
  settings: LinkletSettings,
  onClick: ClickRecorder | undefined,
  tries: PasswordTries = createPasswordTries(),
) {
  const context = { store: settings.store, passwords: settings.passwords, tries };
  const ownOrigin = new URL(settings.baseUrl).origin;
  return async (link: Link, at: number, given: ProtectedRequest): Promise<Answer> => {
    const { request } = given;
    const header = headerPassword(request.headers.get('x-link-password'));
    const password = header ?? formPasswordOf(request, given.body);
    // A browser sends X-Link-Password across sites only if a CORS preflight allows it, which a
    // short URL never does: only a form can come from another site's page.
    const fromElsewhere =
      header === undefined && password !== undefined && !isPostFromOwnOrigin(request.headers, ownOrigin);
    const outcome = await answerPasswordAttempt(
      {
        codeKey: link.codeKey,
        password,
        client: given.client ?? 'unknown',
        audience: given.audience,
        now: at,
        action: `${settings.baseUrl}${new URL(request.url).pathname}`,
        ...(fromElsewhere && { fromElsewhere }),
      },
      context,
    );
    if (outcome.opened && onClick) {
      const { method, headers } = request;
      const click = method === 'POST' || isClick(method, 302, headers.get('sec-purpose'), headers.get('purpose'));
      if (click) onClick(link.codeKey, at, given.visit, link.ownerId);
    }
    return outcome.answer;
  };
}
