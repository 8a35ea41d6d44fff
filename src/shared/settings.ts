import { z } from 'zod';
import './zodMessages';
import { DeskSettingsSchema } from './desk';
import { serviceUrlRefusal } from './serviceUrl';
import { QuietHoursSchema } from './watch';

/** Default base URL of the public Vehicle Auction Data Service (spec: {host_url}/api/v1/vehicle-auction). */
export const DEFAULT_SERVICE_URL = 'https://apibara.tech/api/v1/vehicle-auction';

/** The user's preferences, stored in the `settings` table. Every field has a default. */
export const SettingsSchema = z.object({
  /** UI theme; `system` follows the operating system's light/dark preference. */
  theme: z.enum(['system', 'light', 'dark']).default('system'),
  /** Demo mode: talk to the built-in sandbox instead of the real service. On while no key is set. */
  demoMode: z.boolean().default(true),
  /**
   * Base URL of the real service, used when Demo mode is off. The API key is sent only to the origin it was entered
   * for (docs/architecture.md "Conventions"): another origin here needs its own key.
   */
  serviceUrl: z
    .string()
    .url('Enter a full URL, for example https://apibara.tech/api/v1/vehicle-auction')
    .refine((u) => /^https?:\/\//i.test(u), 'The service URL must start with http:// or https://')
    // Not a private or link-local address: the API key goes with every request (a stored value that breaks this
    // reads as the default, so the key bound to its origin is not sent).
    .superRefine((u, ctx) => {
      const why = serviceUrlRefusal(u);
      if (why) ctx.addIssue({ code: 'custom', message: why });
    })
    .default(DEFAULT_SERVICE_URL),
  /** Start the desktop app when the user logs in, so it keeps watching (off by default; no effect in a browser). */
  openAtLogin: z.boolean().default(false),
  /**
   * The buyer paused watching until this time (ms since the epoch; from the tray: an hour, or until tomorrow
   * morning): no checks run before it, alerts already raised still go out. null: watching.
   */
  watchPausedUntil: z.number().int().min(0).nullable().default(null),
  /** Whether alerts are delivered as native notifications (they always land in the inbox). */
  notificationsEnabled: z.boolean().default(true),
  /** Quiet hours: alerts are held for a digest when they end; checks go on. */
  quietHours: QuietHoursSchema.default({ enabled: false, start: '22:00', end: '07:00' }),
  /**
   * At most this many requests a day, whatever the plan allows; null lets the plan's quota decide. The free plan
   * allows 100 a month (about 3 a day), Basic 30,000 (about 1,000).
   */
  requestsPerDay: z
    .number()
    .int()
    .min(1, 'Allow at least 1 request a day.')
    .max(1_000_000)
    .nullable()
    .default(null),
  /**
   * The kinds of action (contract method names, e.g. `vehicles.search`) whose "this uses 1 request of your quota"
   * notice the user has seen with a real key: each is said once, before its first request, then not again.
   */
  spendNoticesSeen: z.array(z.string().min(1).max(60)).max(100).default([]),
  /**
   * Days a lot keeps every observation after its sale (docs/architecture.md "Retention"); then its observations
   * collapse to its timeline of changes, and an ended lot nobody watches, noted or tagged keeps only its sale result.
   * The request log and poll runs keep 30 days and read alerts 180, whatever this says.
   */
  retentionDays: z
    .number()
    .int()
    .min(7, 'Keep at least 7 days.')
    .max(3650, 'At most 3,650 days (10 years).')
    .default(30),
  /** How the user buys: fee schedule per platform, port, fee lines and their own cost lines (landed cost, max bid). */
  desk: DeskSettingsSchema.default(DeskSettingsSchema.parse({})),
});

export type Settings = z.infer<typeof SettingsSchema>;

/** True for an http(s) URL whose host is this computer: localhost, 127.0.0.0/8 or [::1]. */
export function isLoopbackUrl(u: string): boolean {
  try {
    const h = new URL(u).hostname.toLowerCase();
    return h === 'localhost' || h === '[::1]' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
  } catch {
    return false;
  }
}

/** A partial update of the settings: only the given fields change. Unknown fields are refused. */
export const SettingsPatchSchema = z
  .object({
    theme: SettingsSchema.shape.theme.unwrap(),
    demoMode: SettingsSchema.shape.demoMode.unwrap(),
    serviceUrl: SettingsSchema.shape.serviceUrl
      .unwrap()
      .refine(
        (u) => !/^http:\/\//i.test(u) || isLoopbackUrl(u),
        'Use https://. Plain http:// is allowed only for a service on this computer (localhost), so your API key never crosses a network unencrypted.',
      ),
    notificationsEnabled: SettingsSchema.shape.notificationsEnabled.unwrap(),
    openAtLogin: SettingsSchema.shape.openAtLogin.unwrap(),
    watchPausedUntil: SettingsSchema.shape.watchPausedUntil.unwrap(),
    quietHours: QuietHoursSchema,
    requestsPerDay: SettingsSchema.shape.requestsPerDay.unwrap(),
    spendNoticesSeen: SettingsSchema.shape.spendNoticesSeen.unwrap(),
    retentionDays: SettingsSchema.shape.retentionDays.unwrap(),
    desk: DeskSettingsSchema,
  })
  .partial()
  .strict();

export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;

/** The settings with every default applied. */
export const DEFAULT_SETTINGS: Settings = SettingsSchema.parse({});
