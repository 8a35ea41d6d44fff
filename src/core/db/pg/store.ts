import type { Kysely } from 'kysely';
import { KyselyStore } from '../kysely/store';
import type { DB } from '../schema';

/** A team's store: the Kysely repositories over a PostgreSQL pool (openPostgres). See KyselyStore. */
export class PgStore extends KyselyStore {
  constructor(db: Kysely<DB>) {
    super(db, 'postgres');
  }
}
