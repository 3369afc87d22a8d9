import * as z from 'zod/mini';
import { EXPIRE_DURATIONS } from '../core/expiry.js';
import type { HistoryEntry } from './history-entry.js';

const FORMAT = 'linklet-history';

/** A file can come from anywhere: only web URLs may reach `location` or `tabs.create`. */
const webUrl = z
  .string()
  .check(z.refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), 'must be an http(s) URL'));
const shortUrl = z
  .string()
  .check(
    z.refine(
      (value) => value === '' || /^(https?|chrome-extension|moz-extension):\/\//i.test(value),
      'must be a short URL',
    ),
  );

const entrySchema = z.object({
  id: z.string().check(z.minLength(1)),
  code: z.string(),
  customCode: z.boolean(),
  originalUrl: webUrl,
  shortUrl,
  server: z.nullable(webUrl),
  status: z.enum(['local', 'synced', 'pending', 'conflict', 'failed']),
  expire: z.enum(EXPIRE_DURATIONS),
  createdAt: z.number(),
  expiresAt: z.number(),
  attempts: z.number(),
  nextAttemptAt: z.optional(z.number()),
  message: z.optional(z.string()),
});

const fileSchema = z.object({ format: z.literal(FORMAT), version: z.literal(1), links: z.array(entrySchema) });

/** The export file: versioned so a later format can still read this one. */
export function toHistoryFile(entries: HistoryEntry[], exportedAt: number): string {
  return JSON.stringify(
    { format: FORMAT, version: 1, exportedAt: new Date(exportedAt).toISOString(), links: entries },
    null,
    2,
  );
}

/** Reads an export file; throws with the first problem's path when it is not one. */
export function parseHistoryFile(text: string): HistoryEntry[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('This file is not JSON; choose a file exported by Linklet.');
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`This is not a Linklet history file (${issue?.path.join('.') || 'format'}: ${issue?.message}).`);
  }
  return parsed.data.links;
}
