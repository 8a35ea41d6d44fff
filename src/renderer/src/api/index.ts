import type { Bridge, RawBridge } from '../../../shared/ipc/bridge';
import { createHttpBridge } from './httpBridge';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in a plain browser (headless shell). */
    api?: RawBridge;
  }
}

/**
 * The renderer's one way to reach core: `window.api` when the Electron preload provided it, the HTTP bridge
 * of the headless shell otherwise. The renderer never knows which shell it is in beyond this choice, which the
 * app's entry makes once and hands to the views through ApiProvider.
 */
export function pickBridge(w: { api?: RawBridge } = typeof window === 'undefined' ? {} : window): Bridge {
  if (w.api && typeof w.api.invoke === 'function' && typeof w.api.on === 'function') {
    return w.api as unknown as Bridge;
  }
  return createHttpBridge();
}
