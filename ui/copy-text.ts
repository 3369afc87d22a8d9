/**
 * Copies from a page. The async clipboard needs the page focused, which a popup opened by the
 * toolbar is but one opened otherwise may not be; the selection fallback covers that case.
 * Resolves false when both were refused, so the page can ask the user to press Copy.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    return copied;
  }
}
