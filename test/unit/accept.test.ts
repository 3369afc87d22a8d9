import { describe, expect, it } from 'vitest';
import { acceptPrefersHtml } from '../../core/http/accept.js';

describe('acceptPrefersHtml', () => {
  it.each([
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', true], // Chromium, Firefox
    ['text/html', true],
    ['text/html, application/json', true], // a tie goes to the page, as it always did
    ['application/json;q=0.9, text/html', true],
    ['text/html;level=1;q=0.7, */*;q=0.5', true],
    ['text/html;q=0, application/json', false],
    ['text/html;q=0', false],
    ['application/json, text/html;q=0.5', false],
    ['text/html;q=0.5, application/*', false],
    ['text/html;q=0.5, */*', false],
    ['*/*', false],
    ['application/json', false],
    ['', false],
    [null, false],
    [undefined, false],
  ])('%s → %s', (accept, expected) => {
    expect(acceptPrefersHtml(accept)).toBe(expected);
  });

  it('answers a repeated header the same (the last answer is remembered)', () => {
    const browser = 'text/html,*/*;q=0.8';
    expect(acceptPrefersHtml(browser)).toBe(true);
    expect(acceptPrefersHtml('text/html;q=0, */*')).toBe(false);
    expect(acceptPrefersHtml(browser)).toBe(true);
    expect(acceptPrefersHtml(browser)).toBe(true);
  });

  it('takes an unreadable q as 1', () => {
    expect(acceptPrefersHtml('text/html;q=abc, application/json')).toBe(true);
    expect(acceptPrefersHtml('text/html;q=2, application/json;q=0.5')).toBe(true);
  });
});
