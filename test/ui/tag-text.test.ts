import { describe, expect, it } from 'vitest';
import { tagsFromText, tagsToText } from '../../ui/tag-text.js';

describe('tags typed in one field', () => {
  it('splits at commas and spaces, drops empty pieces and keeps each tag once, in typed order', () => {
    expect(tagsFromText(' work, news  소풍,,work\tko-blog ')).toEqual(['work', 'news', '소풍', 'ko-blog']);
  });

  it('an empty field is no tags (the API removes them)', () => {
    expect(tagsFromText('  , ')).toEqual([]);
  });

  it('reads back what the field showed', () => {
    expect(tagsFromText(tagsToText(['a_b', '태그', 'x-1']))).toEqual(['a_b', '태그', 'x-1']);
    expect(tagsToText(undefined)).toBe('');
  });
});
