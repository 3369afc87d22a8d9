/**
 * The language tags an `Accept-Language` header accepts (q above 0), lower case, `*` left out:
 * `ko-KR,ko;q=0.9,en;q=0` gives `ko-kr`, `ko`.
 */
export function acceptedLanguages(header: string | undefined): string[] {
  if (header === undefined || header === '') return [];
  const tags: string[] = [];
  for (const part of header.split(',')) {
    const [tag, ...params] = part.trim().split(';');
    const name = tag?.trim().toLowerCase();
    if (!name || name === '*') continue;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    tags.push(name);
  }
  return tags;
}

// Most visitors send one of a few Accept-Language values: each is parsed once, then looked up.
const parsed = new Map<string, string[]>();
const MAX_PARSED = 512;

/** `acceptedLanguages` behind a small cache (emptied when full); the list is shared, never changed. */
export function acceptedLanguagesOf(header: string | undefined): readonly string[] {
  if (header === undefined || header === '') return [];
  let tags = parsed.get(header);
  if (tags === undefined) {
    tags = acceptedLanguages(header);
    if (parsed.size >= MAX_PARSED) parsed.clear();
    parsed.set(header, tags);
  }
  return tags;
}

/**
 * Whether a `language` condition holds: a tag the visitor accepts is the condition's, or a more
 * specific one (`ko` holds for `ko-KR`; `ko-KR` does not hold for a visitor accepting only `ko`).
 */
export function acceptsLanguage(accepted: readonly string[], language: string): boolean {
  const wanted = language.toLowerCase();
  return accepted.some((tag) => tag === wanted || tag.startsWith(`${wanted}-`));
}
