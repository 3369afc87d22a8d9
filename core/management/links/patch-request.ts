import { z } from 'zod/mini';
import { invalid } from '../../http/errors.js';
import { parsePasswordField } from '../../passwords/password-hasher.js';
import { type OriginalUrlRules, parseOriginalUrl } from '../../rules/url.js';
import type { LinkPatch } from '../../store/link-management-store.js';
import { parseLinkOptionsPatch } from './link-options-request.js';
import { parseRuleFieldsPatch } from './link-rules-request.js';

const patchSchema = z.object({
  original_url: z.optional(z.string({ error: 'original_url must be a string.' })),
  disabled: z.optional(z.boolean({ error: 'disabled must be true or false.' })),
});

/**
 * The body of `PATCH /api/v1/links/{code}`: a new target (the create rules apply), the disabled
 * flag, the link options (title, tags, renew; see `parseLinkOptionsPatch`), and its rules and
 * limits (`parseRuleFieldsPatch`). Unknown fields
 * are ignored, as on creates; a body with none of them is a 400.
 */
export function parseLinkPatch(
  body: unknown,
  urlRules: OriginalUrlRules,
  now = Date.now(),
): LinkPatch & { password?: string | null } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid('The request body must be a JSON object, such as {"disabled":true}.');
  }
  const result = patchSchema.safeParse(body);
  if (!result.success) throw invalid(result.error.issues[0]?.message ?? 'The request body is not valid.');
  const { original_url: originalUrl, disabled } = result.data;
  const password = parsePasswordField(body);
  const options = { ...parseLinkOptionsPatch(body, now), ...parseRuleFieldsPatch(body, urlRules) };
  if (
    originalUrl === undefined &&
    disabled === undefined &&
    password === undefined &&
    Object.keys(options).length === 0
  ) {
    throw invalid(
      'Send original_url (a new target), disabled (true or false), title, tags or expire_duration (renew), password (or null), redirect_rules, max_visits, valid_since or forward_query: at least one.',
    );
  }
  const patch: LinkPatch & { password?: string | null } = { ...options };
  if (password !== undefined) patch.password = password;
  if (originalUrl !== undefined) patch.originalUrl = parseOriginalUrl(originalUrl, urlRules);
  if (disabled !== undefined) patch.disabled = disabled;
  return patch;
}
