import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../core/passwords/password-hasher.js';
import { t } from '../../extension/i18n.js';

const root = join(import.meta.dirname, '../..');
type Catalogue = Record<string, { message: string; description?: string }>;
const catalogue = (locale: string): Catalogue =>
  JSON.parse(readFileSync(join(root, 'public/_locales', locale, 'messages.json'), 'utf8'));
const en = catalogue('en');
const ko = catalogue('ko');
const locales = readdirSync(join(root, 'public/_locales')).sort();

/** `$1`…`$9` in a message, sorted; `$$` is an escaped dollar sign, not a placeholder. */
const placeholders = (message: string) =>
  [...message.replaceAll('$$', '').matchAll(/\$([1-9])/g)].map((m) => m[1]).sort();

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((file) => file.isFile() && /\.(ts|html)$/.test(file.name))
    .map((file) => relative(root, join(file.parentPath, file.name)));
}
// webapp/: the server's web app speaks from the same catalogs; ui/ holds the labels both share.
const files = [
  ...sourceFiles('extension'),
  ...sourceFiles('entrypoints'),
  ...sourceFiles('webapp'),
  ...sourceFiles('ui'),
  'wxt.config.ts',
];

interface Use {
  file: string;
  key: string;
  /** How many substitutions a `t()` call passes; undefined where it cannot say (`__MSG_`, data-i18n). */
  substitutions?: number;
}

/** Counts the elements of the array literal starting at `text[start]` ('['), or 1 for any other argument. */
function countArguments(text: string, start: number): number {
  if (text[start] !== '[') return 1;
  let depth = 0;
  let count = 1;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (char === '[' || char === '(' || char === '{') depth++;
    else if (char === ']' || char === ')' || char === '}') {
      depth--;
      if (depth === 0) return text.slice(start + 1, i).trim() === '' ? 0 : count;
    } else if (char === ',' && depth === 1) count++;
  }
  throw new Error('unterminated array');
}

function usesIn(file: string): Use[] {
  const text = readFileSync(join(root, file), 'utf8');
  const uses: Use[] = [];
  for (const match of text.matchAll(/\bt\(\s*'([^']+)'\s*(,\s*)?/g)) {
    const key = match[1] as string;
    const end = (match.index ?? 0) + match[0].length;
    uses.push({ file, key, substitutions: match[2] ? countArguments(text, end) : 0 });
  }
  for (const match of text.matchAll(/data-i18n(?:-label|-placeholder)?="([^"]+)"/g)) {
    uses.push({ file, key: match[1] as string });
  }
  for (const match of text.matchAll(/__MSG_(\w+)__/g)) uses.push({ file, key: match[1] as string });
  // Label tables: `{ value: 'key', … } as const satisfies Record<…, MessageKey>`.
  for (const table of text.matchAll(/=\s*\{([^}]*)\}\s*as const satisfies Record<\w+, MessageKey>/g)) {
    for (const value of (table[1] as string).matchAll(/:\s*'([^']+)'/g)) {
      uses.push({ file, key: value[1] as string, substitutions: 0 });
    }
  }
  return uses;
}
const uses = files.flatMap(usesIn);

describe('locales', () => {
  it('are English and Korean', () => {
    expect(locales).toEqual(['en', 'ko']);
  });

  it('have exactly the same keys', () => {
    expect(Object.keys(ko).sort()).toEqual(Object.keys(en).sort());
  });

  it.each(locales)('%s: every key is a valid message name and every message is non-empty', (locale) => {
    for (const [key, entry] of Object.entries(catalogue(locale))) {
      expect(key, key).toMatch(/^[A-Za-z0-9_@]+$/);
      expect(typeof entry.message, key).toBe('string');
      expect(entry.message.trim(), key).not.toBe('');
    }
  });

  it('use the same $n placeholders in both languages', () => {
    for (const key of Object.keys(en)) {
      expect(placeholders(ko[key]?.message ?? ''), key).toEqual(placeholders(en[key]?.message ?? ''));
    }
  });

  it('ko: real particles, none glued to a placeholder, and one word per action (the extension and the web app)', () => {
    const all = Object.entries(ko);
    const keysWhere = (test: (message: string) => boolean) =>
      all.filter(([, { message }]) => test(message)).map(([key]) => key);
    // `(으)로`, `을(를)`, `은(는)`, `이(가)`: stand-ins for a particle chosen from the word.
    expect(keysWhere((message) => /\((으|을|를|은|는|이|가|와|과)\)/.test(message))).toEqual([]);
    // A particle whose form depends on the word's last sound never follows a placeholder: a URL, a
    // code or a name can end in anything. The sentence names the word instead ("$1 링크를").
    // The exception: a rule's subject, which the code builds and which always ends in 방문자.
    const chosenFromTheWord = /\$\d\s*(을|를|은|는|이|가|와|과|으로|로|이나|나|이랑|랑)(?![가-힣])/;
    expect(keysWhere((message) => chosenFromTheWord.test(message))).toEqual(['ruleSentence', 'ruleSentenceNoTarget']);
    const subjects = all.filter(([key]) => /^ruleDevice(?!Option)|^ruleVisitors$/.test(key));
    expect(subjects.length).toBeGreaterThan(5);
    for (const [key, { message }] of subjects) expect(message, key).toMatch(/방문자$/);
    // A particle that fits every word is still written onto it: `$1까지`, not `$1 까지`.
    expect(keysWhere((message) => /\$\d (까지|에서|에게|에|의|도|만|부터)(?![가-힣])/.test(message))).toEqual([]);
    // Disable is 사용 중지 everywhere (popup, options, web app, short-URL pages), never 비활성(화);
    // Enable is 다시 사용.
    expect(keysWhere((message) => message.includes('비활성'))).toEqual([]);
    expect([ko.disable?.message, ko.webDisable?.message]).toEqual(['사용 중지', '사용 중지']);
    expect([ko.enable?.message, ko.webEnable?.message]).toEqual(['다시 사용', '다시 사용']);
    expect(ko.webStatusDisabled?.message).toBe(ko.statusDisabled?.message);
  });

  it('number their placeholders from $1 without gaps', () => {
    for (const [key, { message }] of Object.entries(en)) {
      const used = [...new Set(placeholders(message))];
      expect(used, key).toEqual(used.map((_, i) => String(i + 1)));
    }
  });

  it('the source scan finds the keys it should', () => {
    // A guard on the scan itself: if these stop being found, the checks below check nothing.
    const keys = new Set(uses.map((use) => use.key));
    for (const key of ['extName', 'menuShortenLink', 'copy', 'expire24h', 'statusPending', 'connectionOk']) {
      expect(keys, key).toContain(key);
    }
    expect(uses.find((use) => use.key === 'uploadDone')?.substitutions).toBe(4);
    expect(uses.length).toBeGreaterThan(50);
  });

  it('have every key the extension uses', () => {
    const missing = uses.filter((use) => !(use.key in en)).map((use) => `${use.file}: ${use.key}`);
    expect(missing).toEqual([]);
  });

  it("state the core's password limits where a sentence names them as fixed text", () => {
    // The help under the web app's password field is a plain sentence (its page is localized
    // without substitutions): it must still say what the core accepts.
    const limits = [String(MIN_PASSWORD_LENGTH), String(MAX_PASSWORD_LENGTH)];
    for (const catalog of [en, ko]) expect(catalog.webPasswordHelp?.message.match(/\d+/g)).toEqual(limits);
    const page = readFileSync(join(root, 'webapp/index.html'), 'utf8');
    expect(page).toContain(`${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`);
  });

  it('have as many placeholders as each t() call passes substitutions', () => {
    const mismatched = uses
      .filter((use) => use.substitutions !== undefined && use.key in en)
      .filter((use) => placeholders(en[use.key]?.message ?? '').length !== use.substitutions)
      .map((use) => `${use.file}: t('${use.key}') passes ${use.substitutions}`);
    expect(mismatched).toEqual([]);
  });
});

describe('t', () => {
  it('fills the substitutions into the message', () => {
    expect(t('connectionOk', ['Linklet', 'https://sho.rt/api/v1/shorten'])).toBe(
      'Connected: Linklet answers at https://sho.rt/api/v1/shorten',
    );
    expect(t('menuShortenLink')).toBe('Shorten link');
  });
});
