import type { AlertKind } from '../../shared/watch';

/**
 * The delivery port (DESIGN.md "The parts": alerts -> delivery ports): the store's outbox calls it once per alert
 * it claims. The Electron shell implements it with native notifications, the headless shell and tests with a
 * recorder. `id` is the stored alert's id (the inbox row); `lot_key` null for alerts about Lotwatch itself.
 * A throw or rejection means "not shown"; the alert stays in the inbox either way.
 */
export interface AlertSink {
  deliver(a: {
    id: number;
    title: string;
    body: string;
    lot_key: string | null;
    kind: AlertKind;
  }): Promise<void> | void;
}
