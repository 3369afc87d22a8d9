import { z } from 'zod/mini';
import { invalid } from '../errors.js';
import type { LinkPatch } from '../link-management-store.js';
import { parsePasswordField } from '../passwords/password-hasher.js';
import { type OriginalUrlRules, parseOriginalUrl } from '../url.js';

const patchSchema = z.object({
  original_url: z.optional(z.string({ error: 'original_url must be a string.' })),
  disabled: z.optional(z.boolean({ error: 'disabled must be true or false.' })),
});

/**
 * The body of `PATCH /api/v1/links/{code}`: a new target (the create rules apply) and/or the
 * disabled flag. Unknown fields are ignored, as on creates; a body with neither is a 400.
 */
export function parseLinkPatch(body: unknown, urlRules: OriginalUrlRules): LinkPatch & { password?: string | null } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid('The request body must be a JSON object, such as {"disabled":true}.');
  }
  const result = patchSchema.safeParse(body);
  if (!result.success) throw invalid(result.error.issues[0]?.message ?? 'The request body is not valid.');
  const { original_url: originalUrl, disabled } = result.data;
  const password = parsePasswordField(body);
  if (originalUrl === undefined && disabled === undefined && password === undefined) {
    throw invalid('Send original_url (a new target), disabled (true or false), password (or null), or several.');
  }
  const patch: LinkPatch & { password?: string | null } = {};
  if (password !== undefined) patch.password = password;
  if (originalUrl !== undefined) patch.originalUrl = parseOriginalUrl(originalUrl, urlRules);
  if (disabled !== undefined) patch.disabled = disabled;
  return patch;
}
