/**
 * A person's mouse and keyboard input from the live view, sent to a tab through CDP's Input domain: the page
 * receives it as trusted input, exactly as if someone used the browser window (which headless has none of).
 */
import type { KeyboardEventParams, MouseEventParams } from '@mastra/core/browser';
import type { Tab } from '../session/tab.js';

/** Sent through the tab's own CDP session for input (`Tab.inputSession`), kept while the tab lives. */
export async function dispatchMouse(tab: Tab, event: MouseEventParams): Promise<void> {
  const press = event.type === 'mousePressed' || event.type === 'mouseReleased';
  await (await tab.inputSession()).send('Input.dispatchMouseEvent', {
    type: event.type,
    x: event.x,
    y: event.y,
    // A press without a button or click count is ignored by Chromium: the viewer may leave them out.
    button: event.button ?? (press ? 'left' : 'none'),
    clickCount: event.clickCount ?? (press ? 1 : 0),
    deltaX: event.deltaX ?? 0,
    deltaY: event.deltaY ?? 0,
    modifiers: event.modifiers ?? 0,
  });
}

export async function dispatchKey(tab: Tab, event: KeyboardEventParams): Promise<void> {
  await (await tab.inputSession()).send('Input.dispatchKeyEvent', {
    type: event.type,
    key: event.key,
    code: event.code,
    text: event.text,
    modifiers: event.modifiers ?? 0,
    windowsVirtualKeyCode: event.windowsVirtualKeyCode,
  });
}

/**
 * Input that can change the page, and so makes the model's refs doubtful: presses, the wheel, keys and text.
 * Pointer moves and releases alone do not count; a person who only moved the pointer over the view would
 * otherwise send the model back to re-read a page nobody touched.
 */
export function changesPage(event: MouseEventParams | KeyboardEventParams): boolean {
  return event.type !== 'mouseMoved' && event.type !== 'mouseReleased' && event.type !== 'keyUp';
}
