/**
 * Installs a typed fake bridge as the renderer's `api` module (src/renderer/src/api picks `window.api` when the
 * preload provided one). The api module reads `window.api` once, when it is first imported, so a view test
 * imports this file BEFORE any renderer module: importing it sets `window.api` to a forwarder, and each test
 * then swaps in its own fake with `installFake({ handlers })`.
 */
import type { Bridge, RawBridge } from '../../../src/shared/ipc/bridge';
import type { ContractEvent, Method, MethodInput } from '../../../src/shared/ipc/contract';
import { createAppStore, type AppStore } from '../../../src/renderer/src/state/appStore';
import { createFakeBridge } from '../fakeBridge';

type Fake = ReturnType<typeof createFakeBridge>;

let current: Fake = createFakeBridge();

const forwarder: RawBridge = {
  invoke: (method, input) => current.bridge.invoke(method as Method, input as MethodInput<Method>),
  on: (listener) => current.bridge.on(listener as (e: ContractEvent) => void),
};
window.api = forwarder;

/** Replaces the fake behind `window.api` for this test; returns it (calls, emit, bridge). */
export function installFake(over: Parameters<typeof createFakeBridge>[0] = {}): Fake {
  current = createFakeBridge(over);
  return current;
}

/** The inputs the renderer sent to one method, in order. */
export function inputsOf<M extends Method>(fake: Fake, method: M): (MethodInput<M> | undefined)[] {
  return fake.calls.filter((c) => c.method === method).map((c) => c.input as MethodInput<M> | undefined);
}

/** A bridge that forwards to whichever fake is installed (for App's `api` and the store). */
export function forwardingBridge(): Bridge {
  return {
    invoke: (method, input) => current.bridge.invoke(method, input),
    on: (listener) => current.bridge.on(listener),
  };
}

/** An app store over the installed fake (what a view navigates through, e.g. "Open in Search"). */
export function testStore(): AppStore {
  return createAppStore(forwardingBridge());
}
