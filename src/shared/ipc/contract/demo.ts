import { z } from 'zod';
import { Void } from './common';

/** The Demo examples domain of the contract. */

/** The methods of this domain; contract.ts joins every domain into the one contract. */
export const demoMethods = {
  'examples.remove': {
    input: Void,
    output: z.object({ searches: z.number().int(), watches: z.number().int() }),
  },
} as const;
