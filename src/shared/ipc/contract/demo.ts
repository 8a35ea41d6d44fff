import { z } from 'zod';
import { Done, Void } from './common';

/** The Demo examples domain of the contract. */

/** The methods of this domain; contract.ts joins every domain into the one contract. */
export const demoMethods = {
  'examples.remove': {
    input: Void,
    output: z.object({
      searches: z.number().int(),
      watches: z.number().int(),
      /** Example watched calls removed (call watches marked `is_example`). */
      calls: z.number().int().default(0),
    }),
  },
  /** Demo mode's first-run panel: when the first example alert is expected (ms, null if unknown), and if dismissed. */
  'examples.intro': {
    input: Void,
    output: z.object({ first_alert_expected_at: z.number().nullable(), dismissed: z.boolean() }),
  },
  'examples.dismissIntro': { input: Void, output: Done },
} as const;
