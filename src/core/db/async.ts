/*
 * The two types every async repository is written in (docs/architecture.md "Two engines: one store"), apart from
 * store.ts so that a domain module can name them without reaching every repository.
 */

/** `T`'s methods, each returning a promise of what it returns (a repository as the store's interface has it). */
export type Async<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

/**
 * Runs `fn` as one transaction of the store: all of its writes or none (Store.transaction says how calls join it).
 * Resolves to what `fn` resolves to; rejects with what it throws, after the rollback.
 */
export type Transact = <T>(fn: () => Promise<T>) => Promise<T>;
