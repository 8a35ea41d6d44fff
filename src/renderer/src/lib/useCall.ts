import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Bridge } from '../../../shared/ipc/bridge';
import type { ErrorPayload, Result } from '../../../shared/ipc/errors';
import type { Method, MethodInput, MethodOutput } from '../../../shared/ipc/contract';
import { useApi } from '../api/ApiContext';
import { beforeSpend } from './spendNotice';

/**
 * Calls a contract method after the one-time spend notice (spendNotice.ts) when it would spend a request of the
 * user's quota. Declined: a lot opens from its stored copy; anything else answers `cancelled`, with nothing sent.
 */
async function invoke<M extends Method>(
  api: Bridge,
  method: M,
  input?: MethodInput<M>,
): Promise<Result<MethodOutput<M>>> {
  if (await beforeSpend(method, input)) return api.invoke(method, input);
  if (method === 'vehicles.get')
    return api.invoke(method, {
      ...(input as MethodInput<'vehicles.get'>),
      refresh: false,
    } as MethodInput<M>);
  return {
    ok: false,
    error: { code: 'cancelled', message: 'Not sent, so no request of your quota was used.', retryable: true },
  };
}

/** State of one contract call: data, loading flag, and the typed error (never a thrown exception). */
export interface CallState<M extends Method> {
  data: MethodOutput<M> | null;
  loading: boolean;
  error: ErrorPayload | null;
  /** Calls again with the same (or new) input; resolves to the result's data or null. */
  run: (input?: MethodInput<M>) => Promise<MethodOutput<M> | null>;
}

/**
 * Calls a contract method, at mount when `auto` and on `run()`. Keeps the last data while a new call is in flight,
 * so lists do not flash. Ignores answers that arrive after the component unmounted or a newer call started.
 */
export function useCall<M extends Method>(method: M, input?: MethodInput<M>, auto = true): CallState<M> {
  const api = useApi();
  const [data, setData] = useState<MethodOutput<M> | null>(null);
  const [loading, setLoading] = useState(auto);
  const [error, setError] = useState<ErrorPayload | null>(null);
  const seq = useRef(0);
  const inputRef = useRef(input);
  useEffect(() => {
    inputRef.current = input;
  });
  const run = useCallback(
    async (i?: MethodInput<M>) => {
      const my = ++seq.current;
      setLoading(true);
      const r = await invoke(api, method, i ?? inputRef.current);
      if (my !== seq.current) return null;
      setLoading(false);
      if (r.ok) {
        setData(r.value);
        setError(null);
        return r.value;
      }
      setError(r.error);
      return null;
    },
    [api, method],
  );
  useEffect(() => {
    // Fetching on mount is the effect's job: it syncs the component with the service. The loading flag it sets
    // is the point of the call, not a cascade.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (auto) void run();
    const calls = seq;
    return () => {
      // Answers that arrive after unmount are dropped.
      calls.current++;
    };
  }, [auto, run]);
  return { data, loading, error, run };
}

/** A contract call for an event handler, with the same spend notice as `useCall`. */
export type Caller = <M extends Method>(
  method: M,
  input?: MethodInput<M>,
) => Promise<Result<MethodOutput<M>>>;

/**
 * The function that calls a contract method once, for event handlers (buttons, forms): a spending call says so the
 * first time, as `useCall` does. Stable for as long as the bridge is the same.
 */
export function useCaller(): Caller {
  const api = useApi();
  return useMemo<Caller>(() => (method, input) => invoke(api, method, input), [api]);
}
