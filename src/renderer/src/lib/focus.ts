import { useLayoutEffect } from 'react';

/**
 * Keeps the keyboard user in place around a panel that opens in the page (not a modal): the element that had the
 * focus when the panel opened (its Edit or Alert rules button) gets it back when the panel closes (Escape, Cancel,
 * Save), instead of the focus falling to the page's body. Captured in a layout effect, before the panel's own
 * effects move the focus to its heading. Does nothing when the focus went somewhere else meanwhile, or when the
 * button is gone.
 */
export function useReturnFocus(): void {
  useLayoutEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    return () => {
      // The panel's elements are gone by now: a focus inside it has fallen to the body.
      queueMicrotask(() => {
        const lost = document.activeElement === null || document.activeElement === document.body;
        if (lost && before?.isConnected) before.focus({ preventScroll: true });
      });
    };
  }, []);
}

/** Whether a keydown is the search results shortcut, Alt+R (by key position, so Option+R on a Mac counts too). */
export function isResultsShortcut(e: KeyboardEvent): boolean {
  return e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey && e.code === 'KeyR';
}
