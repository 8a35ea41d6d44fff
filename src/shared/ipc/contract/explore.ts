import { z } from 'zod';
import { LocationParamsSchema, SearchParamsSchema } from '../../queryParams';
import { LocalRefinementsSchema } from '../../localRefinements';
import { CursorMetaView, Void } from './common';
import { VehicleRowSchema } from './lots';

/** The explore domain of the contract: live search, filters, locations, usage, the request log, the API console. */

export const LocationViewSchema = z.object({
  platform: z.string().nullable(),
  facility_id: z.string().nullable(),
  name: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zip: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});

export const RequestLogRowSchema = z.object({
  at: z.number(),
  endpoint: z.string(),
  status: z.number().nullable(),
  duration_ms: z.number(),
  bytes: z.number(),
  attempt: z.number(),
  error_code: z.string().nullable(),
  /** The team member whose call spent it; null: the local owner, or the watcher's own scheduled work. */
  user_name: z.string().nullable().default(null),
});

/**
 * Requests spent this calendar month by each member: `user_id` null is the watcher's own scheduled work on a team
 * server ("The watcher"), or the desktop's one user ("You"), always listed; a member who spent none is not listed.
 */
export const UsageByUserRowSchema = z.object({
  user_id: z.number().int().nullable(),
  name: z.string(),
  requests: z.number().int(),
});

/** One endpoint the API console can call (both specifications). */
export const ConsoleEndpointSchema = z.object({
  /** Stable name, e.g. `GET /vehicles` or `GET /api/v1/vp/vp/video/details`. */
  name: z.string(),
  group: z.enum(['vehicle-auction', 'video-platform']),
  /** Path parameters to fill, e.g. ['slugVin']. */
  path_params: z.array(z.string()),
  /** Query parameter names the specification lists (empty: not shown in the specification). */
  query_params: z.array(z.string()),
  description: z.string(),
});

/** The methods of this domain; contract.ts joins every domain into the one contract. */
export const exploreMethods = {
  'vehicles.search': {
    input: z
      .object({
        params: SearchParamsSchema,
        /** Local refinements (src/shared/localRefinements): applied by Lotwatch to the page, never sent. */
        refine: LocalRefinementsSchema.optional(),
        cursor: z.string().max(4000).optional(),
      })
      .strict(),
    output: z.object({
      /** The page's lots that pass the refinements (every lot of the page when there are none). */
      lots: z.array(VehicleRowSchema),
      /** Lots of the page the refinements left out (still stored for the library); absent when none. */
      refined_out: z.number().int().min(0).optional(),
      meta: CursorMetaView.nullable(),
      warnings: z.array(z.string()),
      /** Records of the page left out because they name no lot number Lotwatch can store (their warnings say which). */
      skipped: z.number().int().min(0).optional(),
    }),
  },
  'vehicles.filters': {
    input: Void,
    output: z.object({
      data: z.record(z.string(), z.unknown()),
      fetched_at: z.number(),
      cached: z.boolean(),
    }),
  },
  'locations.list': {
    input: z.object({ params: LocationParamsSchema }).strict(),
    output: z.object({ locations: z.array(LocationViewSchema), meta: CursorMetaView.nullable() }),
  },
  'usage.fetch': { input: Void, output: z.object({ usage: z.record(z.string(), z.unknown()) }) },
  /**
   * Requests logged this calendar month (UTC: from `since`, the 1st at 00:00, to `until`, the next month's 1st, ms),
   * by who spent them, most first. Read from the request log: no request is spent.
   */
  'usage.byUser': {
    input: Void,
    output: z.object({ since: z.number(), until: z.number(), rows: z.array(UsageByUserRowSchema) }),
  },
  'requests.list': {
    input: z
      .object({ limit: z.number().int().min(1).max(1000).default(200) })
      .strict()
      .optional(),
    output: z.object({ rows: z.array(RequestLogRowSchema), last24h: z.number().int() }),
  },
  'console.endpoints': { input: Void, output: z.array(ConsoleEndpointSchema) },
  'console.call': {
    input: z
      .object({
        name: z.string().min(1).max(200),
        path: z.record(z.string(), z.string().max(2000)).default({}),
        query: z.record(z.string(), z.union([z.string(), z.array(z.string())])).default({}),
      })
      .strict(),
    output: z.object({
      status: z.number(),
      json: z.unknown(),
      duration_ms: z.number(),
      /** Requests this call spent (retries included), and the quota left after it when the service said. */
      requests: z.number().int(),
      remaining: z.number().nullable(),
    }),
  },
} as const;
