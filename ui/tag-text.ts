/**
 * The tags a person typed in one field, "work, news ko-blog", as the list the API takes: split at
 * commas and spaces, empty pieces dropped, each tag once (in the order first typed). Checking the
 * characters and the count is left to the server, which says what is wrong in its own answer.
 */
export function tagsFromText(text: string): string[] {
  return [...new Set(text.split(/[\s,，、]+/u).filter((tag) => tag !== ''))];
}

/** A link's tags as the field shows them again: comma and space between them. */
export function tagsToText(tags: readonly string[] | undefined): string {
  return (tags ?? []).join(', ');
}
