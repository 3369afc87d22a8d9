import { describe, expect, it } from 'vitest';
import { isCopyMessage } from '../../extension/service/messages.js';

// The offscreen document answers one message. Anything else (the retired `linklet:fetch` of the
// Firefox transport a page from an older build might still send, an API call, junk) is left to
// others, so it can neither copy nor swallow another listener's answer.
describe('isCopyMessage', () => {
  it('accepts what the background sends to copy', () => {
    expect(isCopyMessage({ type: 'linklet:copy', text: 'https://sho.rt/abc' })).toBe(true);
  });

  it.each([
    ['the retired fetch transport', { type: 'linklet:fetch', request: { url: 'x', method: 'GET', headers: [] } }],
    ['a copy without text', { type: 'linklet:copy' }],
    ['a copy of a non-string', { type: 'linklet:copy', text: 42 }],
    ['an API call', { type: 'linklet:call', method: 'history', args: [] }],
    ['null', null],
    ['a string', 'linklet:copy'],
  ])('refuses %s', (_, message) => {
    expect(isCopyMessage(message)).toBe(false);
  });
});
