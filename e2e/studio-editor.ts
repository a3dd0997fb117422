import type { Page } from 'playwright-core';

/** Pastes text into a studio CodeMirror editor, replacing what is there, as Ctrl+V would. */
export async function pasteIntoEditor(page: Page, testId: string, text: string) {
  const content = page.locator(`[data-testid="${testId}"] .cm-content`);
  await content.click();
  await page.keyboard.press('Control+A');
  await content.evaluate((el, pasted) => {
    const data = new DataTransfer();
    data.setData('text/plain', pasted);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}
