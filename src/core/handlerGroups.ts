import type { Handlers } from './rpc';
import type { Method } from '../shared/ipc/contract';

/** The handlers of some contract methods: exactly those named by `M`, each typed from the contract. */
export type HandlerGroup<M extends Method> = Pick<Handlers, M>;

/** The joined map when `T`'s groups are disjoint and cover the contract; otherwise a type naming what is wrong. */
export type Joined<T extends readonly object[], Seen extends PropertyKey = never> = T extends readonly [
  infer H extends object,
  ...infer R extends readonly object[],
]
  ? [keyof H & Seen] extends [never]
    ? Joined<R, Seen | keyof H>
    : { error: 'a method is handled by two groups'; methods: keyof H & Seen }
  : [Exclude<Method, Seen>] extends [never]
    ? Handlers
    : { error: 'a contract method has no handler'; methods: Exclude<Method, Seen> };

/**
 * Joins handler groups into the contract's one map. The result is typed `Handlers` only when every contract
 * method is handled by exactly one group, so a missing, doubled or unknown method is a compile error where the
 * map is assigned. Throws nothing.
 */
export function joinHandlers<T extends readonly HandlerGroup<Method>[] | readonly Partial<Handlers>[]>(
  ...groups: T
): Joined<T> {
  return Object.assign({}, ...groups) as Joined<T>;
}
