import type { Migration, PgStep, TwoEngineMigration } from '../migrate';
import { migration as m0010 } from './0010-initial';
import { pg as pg0010 } from './0010-initial.pg';
import { migration as m0020 } from './0020-watch-store';
import { pg as pg0020 } from './0020-watch-store.pg';
import { migration as m0030 } from './0030-cache';
import { pg as pg0030 } from './0030-cache.pg';
import { migration as m0040 } from './0040-sale-result';
import { pg as pg0040 } from './0040-sale-result.pg';
import { migration as m0050 } from './0050-library-order';
import { pg as pg0050 } from './0050-library-order.pg';
import { migration as m0060 } from './0060-search-coverage';
import { pg as pg0060 } from './0060-search-coverage.pg';
import { migration as m0070 } from './0070-buyers-desk';
import { pg as pg0070 } from './0070-buyers-desk.pg';
import { migration as m0080 } from './0080-alert-channels';
import { pg as pg0080 } from './0080-alert-channels.pg';
import { migration as m0090 } from './0090-storage-retention';
import { pg as pg0090 } from './0090-storage-retention.pg';
import { migration as m0100 } from './0100-market-comps';
import { pg as pg0100 } from './0100-market-comps.pg';
import { migration as m0110 } from './0110-record-estimates';
import { pg as pg0110 } from './0110-record-estimates.pg';
import { migration as m0120 } from './0120-library-facets';
import { pg as pg0120 } from './0120-library-facets.pg';
import { migration as m0130 } from './0130-watch-pause';
import { pg as pg0130 } from './0130-watch-pause.pg';
import { migration as m0140 } from './0140-request-quota';
import { pg as pg0140 } from './0140-request-quota.pg';
import { migration as m0150 } from './0150-call-watches';
import { pg as pg0150 } from './0150-call-watches.pg';
import { migration as m0160 } from './0160-team-accounts';
import { pg as pg0160 } from './0160-team-accounts.pg';
import { migration as m0170 } from './0170-team-personal';
import { pg as pg0170 } from './0170-team-personal.pg';
import { migration as m0180 } from './0180-team-owners';
import { pg as pg0180 } from './0180-team-owners.pg';
import { migration as m0190 } from './0190-team-outbox';
import { pg as pg0190 } from './0190-team-outbox.pg';
import { migration as m0200 } from './0200-sweep-cursor';
import { pg as pg0200 } from './0200-sweep-cursor.pg';

/** A step's SQLite form (`NNNN-name.ts`) with its PostgreSQL form (`NNNN-name.pg.ts`). */
const both = (m: Migration, pg: PgStep): TwoEngineMigration => ({ ...m, pg });

/**
 * Every migration in order, each in both engines' forms. Numbers go up in steps of 10 (docs/architecture.md
 * "SQLite" and "Two engines: migrations").
 */
export const MIGRATIONS: readonly TwoEngineMigration[] = [
  both(m0010, pg0010),
  both(m0020, pg0020),
  both(m0030, pg0030),
  both(m0040, pg0040),
  both(m0050, pg0050),
  both(m0060, pg0060),
  both(m0070, pg0070),
  both(m0080, pg0080),
  both(m0090, pg0090),
  both(m0100, pg0100),
  both(m0110, pg0110),
  both(m0120, pg0120),
  both(m0130, pg0130),
  both(m0140, pg0140),
  both(m0150, pg0150),
  both(m0160, pg0160),
  both(m0170, pg0170),
  both(m0180, pg0180),
  both(m0190, pg0190),
  both(m0200, pg0200),
];
