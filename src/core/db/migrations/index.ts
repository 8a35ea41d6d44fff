import type { Migration } from '../migrate';
import { migration as m0010 } from './0010-initial';
import { migration as m0020 } from './0020-watch-store';
import { migration as m0030 } from './0030-cache';
import { migration as m0040 } from './0040-sale-result';
import { migration as m0050 } from './0050-library-order';
import { migration as m0060 } from './0060-search-coverage';
import { migration as m0070 } from './0070-buyers-desk';
import { migration as m0080 } from './0080-alert-channels';
import { migration as m0090 } from './0090-storage-retention';
import { migration as m0100 } from './0100-market-comps';
import { migration as m0110 } from './0110-record-estimates';
import { migration as m0120 } from './0120-library-facets';
import { migration as m0130 } from './0130-watch-pause';
import { migration as m0140 } from './0140-request-quota';
import { migration as m0150 } from './0150-call-watches';

/** Every migration in order. Numbers go up in steps of 10 (docs/architecture.md "SQLite"). */
export const MIGRATIONS: readonly Migration[] = [
  m0010,
  m0020,
  m0030,
  m0040,
  m0050,
  m0060,
  m0070,
  m0080,
  m0090,
  m0100,
  m0110,
  m0120,
  m0130,
  m0140,
  m0150,
];
