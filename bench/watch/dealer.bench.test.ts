import { benchWorkload } from './run';

benchWorkload('dealer');
