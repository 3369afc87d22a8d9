import { expect, openTab, popupError, popupWithResult, readHistory, test } from './fixtures.js';

// The popup's custom code is counted as the core counts it: code points after NFC. Its field had
// maxlength="64", which counts UTF-16 units: a code typed or pasted as decomposed Hangul (three
// units a syllable here) was cut by the browser, though the core composes and accepts it. The text
// goes in through the browser's input pipeline (CDP Input.insertText), which maxlength limits.

// Each with a final consonant, so three conjoining jamo (three UTF-16 units) once decomposed.
const SYLLABLES = '한글강산합격땅콩';
/** A code of `count` Hangul syllables, composed (NFC, as the core keeps it). */
const hangulCode = (count: number) => Array.from({ length: count }, (_, i) => SYLLABLES[i % SYLLABLES.length]).join('');

/** Replaces the code field's text by typing `text` into it, as a paste does. */
async function typeCode(popup: Awaited<ReturnType<typeof popupWithResult>>['popup'], text: string): Promise<void> {
  await popup.evaluate(`document.querySelector('#code').focus(); document.querySelector('#code').select()`);
  await popup.insertText(text);
}

test('a code pasted as decomposed Hangul is kept whole and made NFC; 65 characters are refused, nothing asked', async ({
  ext,
  site,
}) => {
  const pageUrl = site.url('/hangul-code');
  const { popup, shortUrl: first } = await popupWithResult(ext, await openTab(ext, pageUrl));
  const code = hangulCode(30);
  const pasted = code.normalize('NFD');
  expect(pasted.length).toBe(90); // maxlength="64" kept 21 syllables and a piece of the 22nd

  await typeCode(popup, pasted);
  expect(await popup.evaluate(`document.querySelector('#code').value`)).toBe(pasted);
  await popup.press('Enter');
  const made = await popup.waitFor<string>(
    `(() => { const url = document.querySelector('#short-url').value; return url !== ${JSON.stringify(first)} && url; })()`,
    'the link made with the Hangul code',
  );
  expect(decodeURIComponent(made)).toBe(`${ext.origin}/open.html#/${code}/`);
  expect(await popupError(popup)).toBe('');
  // The page's first link is in the history already: wait for this one's row, drawn after the result.
  await expect
    .poll(async () => (await readHistory(popup)).map((item) => decodeURIComponent(item.shortUrl)))
    .toContain(`${ext.origin}/open.html#/${code}/`);

  // 65 characters (decomposed, 195 units): said in the popup's words, the field marked invalid and
  // described by the message, and the background is not asked: no link, no new history line.
  const before = await readHistory(popup);
  const tooLong = hangulCode(65).normalize('NFD');
  await typeCode(popup, tooLong);
  expect(await popup.evaluate(`document.querySelector('#code').value`)).toBe(tooLong);
  await popup.press('Enter');
  await expect.poll(() => popupError(popup)).toBe('A code can be at most 64 characters long; this one has 65.');
  expect(
    await popup.evaluate(`(() => {
      const field = document.querySelector('#code');
      return {
        invalid: field.getAttribute('aria-invalid'),
        describedBy: field.getAttribute('aria-describedby'),
        focused: document.activeElement === field,
        value: field.value,
        result: document.querySelector('#result').hidden,
      };
    })()`),
  ).toEqual({ invalid: 'true', describedBy: 'error', focused: true, value: tooLong, result: true });
  // Give a request that should not exist the time to land, then check none did.
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(await readHistory(popup)).toEqual(before);

  // 64 syllables are the most a code may have: made, and the mark goes.
  await typeCode(popup, hangulCode(64).normalize('NFD'));
  await popup.press('Enter');
  await popup.waitFor(
    `decodeURIComponent(document.querySelector('#short-url').value).endsWith(${JSON.stringify(`#/${hangulCode(64)}/`)})`,
    'the link made with 64 syllables',
  );
  expect(await popup.evaluate(`document.querySelector('#code').hasAttribute('aria-invalid')`)).toBe(false);
  expect(await popupError(popup)).toBe('');
  expect(popup.errors).toEqual([]);
  await popup.close();
});
