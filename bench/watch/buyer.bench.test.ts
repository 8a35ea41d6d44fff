import { benchWorkload } from './run';

benchWorkload('buyer');
