import { z } from 'zod';
import { DeliveryViewSchema } from '../../alertChannels';
import { ExportBlockSchema } from '../../exportBlock';
import { CHANGE_KINDS } from '../../watch';
import { Void } from './common';
import { WatchViewSchema } from './watchlist';

/** The alerts inbox domain of the contract (alerts.*). */

export const AlertViewSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  lot_key: z.string().nullable(),
  title: z.string(),
  body: z.string(),
  source: z.string(),
  /** A link the alert names (a call watch's new video, say): http(s) only, opened outside the app; null: none. */
  url: z.string().nullable().default(null),
  reason: z.string().nullable(),
  created_at: z.number(),
  delivery: z.enum(['now', 'digest', 'suppressed']),
  status: z.string(),
  read: z.boolean(),
  /** The user's notes and tags on the alert's lot, shown beside the alert; empty when there are none. */
  lot_notes: z.string().default(''),
  lot_tags: z.array(z.string()).default([]),
  /** Whether the alert's lot's title blocks export or registration, as stored now (the inbox row's mark); null when not. */
  lot_export_block: ExportBlockSchema.nullable().default(null),
  /** Where the alert went besides this inbox: one row per alert channel (email, phone, webhook), oldest first. */
  deliveries: z.array(DeliveryViewSchema).default([]),
});

export type AlertView = z.infer<typeof AlertViewSchema>;

/** The methods of this domain; contract.ts joins every domain into the one contract. */
export const inboxMethods = {
  'alerts.list': {
    input: z
      .object({
        unread_only: z.boolean().default(false),
        limit: z.number().int().min(1).max(500).default(100),
        before_id: z.number().int().positive().optional(),
      })
      .strict()
      .optional(),
    output: z.object({ alerts: z.array(AlertViewSchema), unread: z.number().int() }),
  },
  'alerts.markRead': {
    input: z
      .object({ ids: z.array(z.number().int().positive()).max(1000), read: z.boolean().default(true) })
      .strict(),
    output: z.object({ unread: z.number().int() }),
  },
  'alerts.snooze': {
    input: z
      .object({
        lot_key: z.string().min(3),
        /** Until this time (ms), or null to end a snooze. */
        until: z.number().int().nullable().optional(),
        /** Until a change of this kind happens on the lot. */
        until_event: z.enum(CHANGE_KINDS).nullable().optional(),
      })
      .strict(),
    output: WatchViewSchema,
  },
  'alerts.mute': {
    input: z.object({ lot_key: z.string().min(3), muted: z.boolean() }).strict(),
    output: WatchViewSchema,
  },
  /** How many inbox alerts are unread: the count on Alerts in the navigation, the title and the app badge. */
  'alerts.unread': { input: Void, output: z.object({ count: z.number().int().min(0) }) },
} as const;
