/**
 * The fake bridge a view test renders with: `installFake({ handlers })` sets this test's fake, and `render` mounts
 * the component under an ApiProvider that forwards to it, as the app frame hands the real bridge to its views.
 */
import { cleanup, render as rtlRender, type RenderOptions } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { afterEach, beforeEach, vi } from 'vitest';
import { ApiProvider } from '../../../src/renderer/src/api/ApiContext';
import { createAppStore, type AppStore } from '../../../src/renderer/src/app/appStore';
import type { Bridge } from '../../../src/shared/ipc/bridge';
import type { Method, MethodInput } from '../../../src/shared/ipc/contract';
import { createFakeBridge } from '../fakeBridge';
import { NOW } from './fixtures';

type Fake = ReturnType<typeof createFakeBridge>;

let current: Fake = createFakeBridge();

/** Forwards to the fake of the running test, so a component keeps one bridge while a test swaps fakes. */
const forwarder: Bridge = {
  invoke: (method, input) => current.bridge.invoke(method, input),
  on: (listener) => current.bridge.on(listener),
};

/** Replaces the fake behind the bridge for this test; returns it (calls, emit, bridge). */
export function installFake(over: Parameters<typeof createFakeBridge>[0] = {}): Fake {
  current = createFakeBridge(over);
  return current;
}

function WithApi({ children }: { children: ReactNode }) {
  return <ApiProvider bridge={forwarder}>{children}</ApiProvider>;
}

/** Testing Library's render, under the ApiProvider of the installed fake. */
export function render(ui: ReactElement, options: Omit<RenderOptions, 'wrapper'> = {}) {
  return rtlRender(ui, { ...options, wrapper: WithApi });
}

/** The inputs the renderer sent to one method, in order. */
export function inputsOf<M extends Method>(fake: Fake, method: M): (MethodInput<M> | undefined)[] {
  return fake.calls.filter((c) => c.method === method).map((c) => c.input as MethodInput<M> | undefined);
}

/** An app store over the installed fake (what a view navigates through, e.g. "Open in Search"). */
export function testStore(): AppStore {
  return createAppStore(forwarder);
}

/** The bridge that forwards to the installed fake, for components that take it as a prop (the app frame). */
export function forwardingBridge(): Bridge {
  return forwarder;
}

/**
 * For every test of the calling file (call at its top level): Date frozen at NOW (timers stay real, so the views'
 * own waits run) and the address at `hash` when given, as the app frame opens a view; after each test the rendered
 * tree is unmounted and the real Date is back.
 */
export function frozenAtNow(hash?: string): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    if (hash !== undefined) window.location.hash = hash;
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });
}
