/**
 * The value a `<input type="datetime-local">` shows for an ISO moment, in the browser's time zone
 * ("2026-12-01T09:30"), or '' for none. People pick dates in their own zone; the API keeps UTC.
 */
export function localInputValue(iso: string | null | undefined): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const two = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}T${two(at.getHours())}:${two(at.getMinutes())}`;
}

/** The ISO moment a `datetime-local` value means in the browser's zone, or undefined when it is none. */
export function isoFromLocalInput(value: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/.exec(value.trim());
  if (match === null) return undefined;
  const [year, month, day, hours, minutes] = match.slice(1).map((part) => Number(part ?? 0)) as number[];
  const at = new Date(year as number, (month as number) - 1, day, hours, minutes);
  // 2026-02-31 rolls over to March: a date the person did not mean.
  if (at.getMonth() !== (month as number) - 1 || at.getDate() !== day) return undefined;
  return at.toISOString();
}

/** The browser's time zone by name ("Asia/Seoul"), so "Starts on" can say whose clock it means. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
