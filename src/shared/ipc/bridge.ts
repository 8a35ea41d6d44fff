import type { Result } from './errors';
import type { ContractEvent, Method, MethodInput, MethodOutput } from './contract';

/**
 * What the renderer talks to: `window.api` from the Electron preload, or the HTTP bridge of the headless shell. Both
 * have this exact shape (docs/architecture.md "The parts": invoke() and on(), nothing else).
 */
export interface Bridge {
  /** Calls a contract method. Never rejects for a handled error: it resolves to `{ ok: false, error }`. */
  invoke<M extends Method>(method: M, input?: MethodInput<M>): Promise<Result<MethodOutput<M>>>;
  /** Subscribes to contract events; returns the function that unsubscribes. */
  on(listener: (event: ContractEvent) => void): () => void;
}

/** The untyped form the preload exposes: the same calls, checked against the channel list at runtime. */
export interface RawBridge {
  invoke(method: string, input?: unknown): Promise<unknown>;
  on(listener: (event: { name: string; payload: unknown }) => void): () => void;
}
