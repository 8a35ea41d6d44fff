import { contextBridge, ipcRenderer } from 'electron';
import { EVENT_CHANNEL, RPC_CHANNEL, isEventName, isMethodName } from '../shared/ipc/channels';
import type { RawBridge } from '../shared/ipc/bridge';

/**
 * The sandboxed preload: exposes `window.api` with invoke() and on() only (docs/architecture.md "The parts"), so the
 * page gets no other way into the main process. Names are checked against the zod-free channel list; payloads are
 * checked by the main process.
 */
const api: RawBridge = {
  invoke(method, input) {
    if (!isMethodName(method)) {
      return Promise.resolve({
        ok: false,
        error: { code: 'unknown_method', message: `There is no method ${String(method)}.`, retryable: false },
      });
    }
    return ipcRenderer.invoke(RPC_CHANNEL, method, input);
  },
  on(listener) {
    const handler = (_e: unknown, event: { name: string; payload: unknown }) => {
      if (event && isEventName(event.name)) listener(event);
    };
    ipcRenderer.on(EVENT_CHANNEL, handler);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, handler);
    };
  },
};

contextBridge.exposeInMainWorld('api', api);
