/**
 * The one notifier port (docs/architecture.md "Delivery"): the shell's channel behind core's outbox. Core decides
 * whether and when a notification is shown (Settings' notifications switch, mute, snooze, quiet hours and the
 * digest); the channel only shows it: a native Notification in the desktop app, a `notification.posted` event the
 * open page turns into a browser Notification in the browser shell. `lotKey` is the lot a click opens (absent for
 * alerts about Lotwatch itself and for digests). A throw means "not shown"; the alert stays in the inbox.
 */
export interface Notifier {
  notify(n: { title: string; body: string; lotKey?: string }): void;
}
