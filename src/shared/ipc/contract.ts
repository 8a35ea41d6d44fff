import { z } from 'zod';
import { SettingsPatchSchema, SettingsSchema } from '../settings';
import type { EventName, MethodName } from './channels';

/**
 * The one contract between the renderer and core (DESIGN.md "One contract, two shells"). Each method has a
 * zod input and output; both shells parse the input before core sees it and the output before the renderer
 * does. Types are inferred from here, never restated.
 */

export const AppInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  /** Which shell hosts core: the Electron desktop app or the headless browser shell. */
  shell: z.enum(['electron', 'headless']),
  /** `demo` while Lotwatch talks to its built-in sandbox, `live` with a real key. */
  mode: z.enum(['demo', 'live']),
  dataDir: z.string(),
  dbPath: z.string(),
  platform: z.string(),
  versions: z.object({ node: z.string(), electron: z.string().nullable(), sqlite: z.string() }),
  /** Database schema version (PRAGMA user_version). */
  schemaVersion: z.number().int(),
});

const Void = z.undefined().or(z.null()).or(z.object({}).strict()).optional();

export const contract = {
  'app.info': { input: Void, output: AppInfoSchema },
  'settings.get': { input: Void, output: SettingsSchema },
  'settings.update': { input: SettingsPatchSchema, output: SettingsSchema },
} as const satisfies Record<MethodName, { input: z.ZodType; output: z.ZodType }>;

export const events = {
  'settings.changed': SettingsSchema,
  /** The user clicked a native notification; the renderer opens the lot. */
  'notification.clicked': z.object({ lotKey: z.string() }),
} as const satisfies Record<EventName, z.ZodType>;

export type Contract = typeof contract;
export type Method = keyof Contract;
export type MethodInput<M extends Method> = z.input<Contract[M]['input']>;
export type MethodOutput<M extends Method> = z.output<Contract[M]['output']>;
export type Events = typeof events;
export type EventPayload<E extends keyof Events> = z.output<Events[E]>;
/** One event as it travels from core to a shell to the renderer. */
export type ContractEvent = { [E in keyof Events]: { name: E; payload: EventPayload<E> } }[keyof Events];
export type AppInfo = z.infer<typeof AppInfoSchema>;
