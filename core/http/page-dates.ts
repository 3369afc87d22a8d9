import type { PageLanguage } from './page-language.js';

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone and shape, made once: a page is answered many times, a formatter costs. */
function formatterFor(timeZone: string, shape: 'parts' | 'month'): Intl.DateTimeFormat {
  const key = `${shape} ${timeZone}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter =
      shape === 'month'
        ? new Intl.DateTimeFormat('en-US', { timeZone, month: 'numeric' })
        : new Intl.DateTimeFormat('en-GB', {
            timeZone,
            day: 'numeric',
            month: 'short',
            year: 'numeric',
            hour: '2-digit',
            minute: '2-digit',
            hourCycle: 'h23',
            timeZoneName: 'short',
          });
    formatters.set(key, formatter);
  }
  return formatter;
}

/** The 24-hour parts both languages are built from. */
function partsIn(epochMs: number, timeZone: string): Record<string, string> {
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone, 'parts').formatToParts(epochMs)) parts[part.type] = part.value;
  return parts;
}

/** Moments already written, by language, zone and time; cleared whole when full. */
const formatted = new Map<string, string>();
const MAX_FORMATTED = 1000;

const monthNumber = (epochMs: number, timeZone: string) => formatterFor(timeZone, 'month').format(epochMs);

/**
 * A moment as people write it on a page, in the server's time zone and named with it:
 * "25 Nov 2026, 10:00 UTC", "2026년 11월 25일 오전 10:00 (UTC)". The Korean form is assembled
 * here rather than left to ICU, whose Korean day periods changed between versions ("AM" or "오전").
 */
export function formatPageDate(epochMs: number, language: PageLanguage, timeZone: string): string {
  // An expired link's page shows the same moment on every click, and ICU's formatting was the
  // largest part of that page's JavaScript: each moment is formatted once (a bounded few kept).
  const key = `${language} ${timeZone} ${epochMs}`;
  let text = formatted.get(key);
  if (text === undefined) {
    text = formatNow(epochMs, language, timeZone);
    if (formatted.size >= MAX_FORMATTED) formatted.clear();
    formatted.set(key, text);
  }
  return text;
}

function formatNow(epochMs: number, language: PageLanguage, timeZone: string): string {
  const { day, month, year, hour = '00', minute, timeZoneName } = partsIn(epochMs, timeZone);
  if (language === 'en') return `${day} ${month} ${year}, ${hour}:${minute} ${timeZoneName}`;
  const h = Number(hour);
  const period = h < 12 ? '오전' : '오후';
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return `${year}년 ${monthNumber(epochMs, timeZone)}월 ${day}일 ${period} ${h12}:${minute} (${timeZoneName})`;
}
