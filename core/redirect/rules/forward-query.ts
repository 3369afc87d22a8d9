/**
 * A target with the visit's query parameters added (`forward_query`): the target's own stay,
 * except those the visit names too, whose values are the visit's. `location` is an ASCII URL (a
 * redirect's `Location`); its fragment stays last.
 */
export function withForwardedQuery(location: string, query: string): string {
  if (query === '') return location;
  const url = new URL(location);
  const visit = new URLSearchParams(query);
  const merged = new URLSearchParams(url.search);
  for (const name of new Set(visit.keys())) merged.delete(name);
  for (const [name, value] of visit) merged.append(name, value);
  url.search = merged.toString();
  return url.href;
}
