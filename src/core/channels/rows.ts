import { ChannelSettingsSchema, type ChannelSettings } from '../../shared/alertChannels';
import type { DeliveryRow } from '../db/channelsRepo';
import type { MessageAlert } from './types';

/** A stored settings JSON as ChannelSettings, or null when it is not valid (never throws). */
export function parseSettings(json: string): ChannelSettings | null {
  try {
    const r = ChannelSettingsSchema.safeParse(JSON.parse(json));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/** A queued delivery's alert as a message takes it (title, body, lot, when it was raised in ms). */
export function messageAlert(r: DeliveryRow): MessageAlert {
  return {
    id: r.alert_id,
    kind: r.kind,
    title: r.title,
    body: r.body,
    lot_key: r.lot_key,
    url: r.url ?? null,
    created_at: r.alert_created_at,
  };
}
