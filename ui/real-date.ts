/** Dates a `Date` can hold (±8.64e15 ms); anything else cannot be shown or compared. */
export function isRealDate(epochMs: unknown): epochMs is number {
  return typeof epochMs === 'number' && Number.isFinite(epochMs) && Math.abs(epochMs) <= 8.64e15;
}
