/**
 * A text's length as people count it and as the API's rules state it: code points, so an emoji
 * or any character beyond the Basic Multilingual Plane (two UTF-16 units) is one character. The
 * OpenAPI document's `maxLength` counts the same way (JSON Schema counts code points).
 */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
