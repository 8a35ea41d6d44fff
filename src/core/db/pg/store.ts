import type { Kysely } from 'kysely';
import type { Async, Store, Transact } from '../store';
import { KyselyExec } from '../kysely/exec';
import type { DB } from '../schema';

/**
 * A team's store: the Kysely repositories over a PostgreSQL pool (openPostgres). Every call takes a pooled
 * connection, or the open transaction's when made from inside `transaction`.
 */
export class PgStore implements Store {
  readonly engine = 'postgres' as const;
  private readonly exec: KyselyExec;

  constructor(db: Kysely<DB>) {
    this.exec = new KyselyExec(db);
  }

  transaction: Transact = (fn) => this.exec.transaction(fn);

  suspect(): void {}
}
