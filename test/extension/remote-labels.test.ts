import { describe, expect, it } from 'vitest';
import { readRemoteLabels } from '../../extension/server/remote-labels.js';

describe("a synced link's title", () => {
  it('keeps a title of 200 characters counted as the server counts them (an emoji is one)', () => {
    expect(readRemoteLabels({ title: '😀'.repeat(200) }).title).toBe('😀'.repeat(200));
    expect(readRemoteLabels({ title: '😀'.repeat(201) }).title).toBeUndefined();
  });
});
