import { benchWorkload } from './run';

benchWorkload('free');
