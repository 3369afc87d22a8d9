/** v1 dialect: ISO 8601 in UTC with milliseconds and `Z`. */
export function formatIsoDate(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

const legacyFormatters = new Map<string, Intl.DateTimeFormat>();

function legacyFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = legacyFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    legacyFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * Legacy dialect: `YYYY-MM-DD HH:MM:SS` in the server's display time zone (an IANA name), as the
 * PHP service this endpoint replaces printed it.
 */
export function formatLegacyDate(epochMs: number, timeZone: string): string {
  const parts: Record<string, string> = {};
  for (const part of legacyFormatter(timeZone).formatToParts(epochMs)) parts[part.type] = part.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** Whether the runtime knows this IANA time zone, so configuration can refuse a typo at start. */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}
