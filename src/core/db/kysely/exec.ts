import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../schema';

/**
 * Where a Kysely repository sends its queries (docs/architecture.md "Two engines: one store"): the pool, or the open
 * transaction when the call comes from inside one (AsyncLocalStorage carries it through awaits), so that a
 * repository object never needs to be rebuilt for a transaction and a nested `transaction` joins the outer one.
 */
export class KyselyExec {
  private readonly inside = new AsyncLocalStorage<Transaction<DB>>();

  constructor(private readonly root: Kysely<DB>) {}

  /** The executor of the current call: the open transaction of this store when inside one, else the pool. */
  get db(): Kysely<DB> {
    return this.inside.getStore() ?? this.root;
  }

  /**
   * Runs `fn` in one transaction (or in the open one, when called from inside it); a rejection rolls it back and is
   * passed on. @throws what `fn` throws, or the driver's error (a lost connection: the transaction is rolled back).
   */
  transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.inside.getStore()) return fn();
    return this.root.transaction().execute((trx) => this.inside.run(trx, fn));
  }
}
