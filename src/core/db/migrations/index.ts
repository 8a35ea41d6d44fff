import type { Migration } from '../migrate';
import { migration as m0010 } from './0010-initial';

/** Every migration in order. Numbers go up in steps of 10 (DESIGN.md "Conventions"). */
export const MIGRATIONS: readonly Migration[] = [m0010];
