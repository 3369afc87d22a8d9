import type { Env, Hono } from 'hono';
import { invalid, LinkletError } from '../../http/errors.js';
import { notAllowed } from '../../http/not-allowed.js';
import { parseJsonText } from '../../http/parse-json-text.js';
import { characterCount } from '../../rules/character-count.js';
import { formatIsoDate } from '../../rules/dates.js';
import type { LinkManagementStore, OwnerKey } from '../../store/link-management-store.js';
import { type ManagementContext, PRIVATE, success } from '../management-context.js';
import { generateApiKey, hashApiKey } from './api-keys.js';
import { requireAdmin, requireCaller } from './authenticate.js';
import { MAX_NAME_LENGTH } from './owner-name.js';

const keyView = (key: OwnerKey) => ({
  id: key.id,
  name: key.name,
  created_at: formatIsoDate(key.createdAt),
  last_used_at: key.lastUsedAt === undefined ? null : formatIsoDate(key.lastUsedAt),
  revoked: key.revoked,
});

/**
 * The owner name of `POST /api/v1/keys` (and of `npm run keys -- create`), trimmed and in NFC; a
 * 400 naming `name` otherwise. A key goes to the owner of that name, so "José" typed with a
 * combining accent (as text copied from a file name on macOS often is) must find the owner made
 * as "José", not make a second one that looks the same and holds none of the first one's links.
 */
export function parseOwnerName(body: unknown): string {
  const given = typeof body === 'object' && body !== null ? (body as { name?: unknown }).name : undefined;
  const name = typeof given === 'string' ? given.trim().normalize('NFC') : '';
  if (name === '' || characterCount(name) > MAX_NAME_LENGTH) {
    throw invalid(`name is required: the owner's name, a string of 1 to ${MAX_NAME_LENGTH} characters.`);
  }
  return name;
}

/**
 * The name a new key is made under: `name` as parsed when an owner has it (or none is the same
 * name in NFC), else the spelling of the owner that is: one stored before names were normalised,
 * typed decomposed. So such an owner still gets its second key rather than a look-alike owner.
 * Keys are few and made rarely, so reading them all is cheap.
 */
export async function ownerNameFor(name: string, store: Pick<LinkManagementStore, 'listKeys'>): Promise<string> {
  const keys = await store.listKeys();
  if (keys.some((key) => key.name === name)) return name;
  return keys.find((key) => key.name.normalize('NFC') === name)?.name ?? name;
}

/** `POST/GET /api/v1/keys`, `DELETE /api/v1/keys/{id}` (administrator only) and `GET /api/v1/me`. */
export function registerKeyRoutes<E extends Env>(app: Hono<E>, context: ManagementContext): void {
  const { store, now } = context;
  const admin = async (request: Request) => requireAdmin(await context.callerOf(request), context.apiKey !== undefined);

  app.post('/api/v1/keys', async (c, next) => {
    await admin(c.req.raw);
    return context.limitBody(c, next);
  });
  app.post('/api/v1/keys', async (c) => {
    const name = await ownerNameFor(parseOwnerName(parseJsonText(await c.req.raw.text())), store);
    const key = generateApiKey();
    const made = await store.createKey(name, await hashApiKey(key), now());
    return c.json(
      success('The key was created; it is shown only this once.', {
        id: made.id,
        name: made.name,
        key,
        created_at: formatIsoDate(made.createdAt),
      }),
      201,
      PRIVATE,
    );
  });
  app.get('/api/v1/keys', async (c) => {
    await admin(c.req.raw);
    const keys = await store.listKeys();
    return c.json(success(`${keys.length} keys.`, { keys: keys.map(keyView) }), 200, PRIVATE);
  });
  app.all('/api/v1/keys', notAllowed(['GET', 'HEAD', 'POST', 'OPTIONS']));

  app.delete('/api/v1/keys/:id', async (c) => {
    await admin(c.req.raw);
    const id = c.req.param('id');
    const revoked = /^\d{1,15}$/.test(id) && (await store.revokeKey(Number(id), now()));
    if (!revoked)
      throw new LinkletError(
        'not_found',
        `There is no key with id ${JSON.stringify(id)}; GET /api/v1/keys lists them.`,
      );
    return c.json(success('The key was revoked.'), 200, PRIVATE);
  });
  app.all('/api/v1/keys/:id', notAllowed(['DELETE', 'OPTIONS']));

  app.get('/api/v1/me', async (c) => {
    const caller = requireCaller(await context.callerOf(c.req.raw));
    return c.json(
      success(`This key belongs to ${caller.name}.`, { name: caller.name, admin: caller.admin }),
      200,
      PRIVATE,
    );
  });
  app.all('/api/v1/me', notAllowed(['GET', 'HEAD', 'OPTIONS']));
}
