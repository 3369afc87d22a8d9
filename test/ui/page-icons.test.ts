import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAVICON_PATH } from '../../core/site/favicon.js';

// Every screen names an icon that exists: the web app the server's /favicon.svg, the extension's
// own pages (opened in a tab, where the icon shows) one of its packaged icons.
const root = join(import.meta.dirname, '../..');
const iconOf = (page: string) => /<link rel="icon" href="([^"]+)"/.exec(readFileSync(join(root, page), 'utf8'))?.[1];

describe('page icons', () => {
  it('the web app names the icon the server serves', () => {
    expect(iconOf('webapp/index.html')).toBe(FAVICON_PATH);
  });

  it.each(['entrypoints/options/index.html', 'entrypoints/open/index.html'])('%s names a packaged icon', (page) => {
    const icon = iconOf(page);
    expect(icon).toMatch(/^\/icon\/\d+\.png$/);
    expect(existsSync(join(root, 'public', icon as string))).toBe(true);
  });
});
