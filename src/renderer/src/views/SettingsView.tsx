import { useState, type FormEvent } from 'react';
import { useStore } from 'zustand';
import type { Settings } from '../../../shared/settings';
import type { AppStore } from '../state/appStore';

/** Asks the browser for permission to show alerts as notifications (headless shell only). */
function BrowserNotificationPermission() {
  const supported = typeof Notification !== 'undefined';
  const [permission, setPermission] = useState(supported ? Notification.permission : 'denied');
  if (!supported) return <p className="muted small">This browser cannot show notifications.</p>;
  if (permission === 'granted') return <p className="muted small">This browser will show alerts as notifications.</p>;
  if (permission === 'denied') {
    return <p className="muted small">Notifications are blocked for this page; allow them in the browser's site settings.</p>;
  }
  return (
    <div>
      <button type="button" onClick={() => void Notification.requestPermission().then(setPermission)}>
        Allow browser notifications
      </button>
    </div>
  );
}

/** Settings: theme, Demo mode, service URL and notifications. Field errors from the contract show inline. */
export function SettingsView({ store }: { store: AppStore }) {
  const settings = useStore(store, (s) => s.settings);
  if (!settings) return <p className="muted">Loading settings…</p>;
  // A new stored value (saved here or changed elsewhere) starts a fresh draft.
  return <SettingsForm key={JSON.stringify(settings)} store={store} initial={settings} />;
}

function SettingsForm({ store, initial }: { store: AppStore; initial: Settings }) {
  const info = useStore(store, (s) => s.info);
  const saving = useStore(store, (s) => s.saving);
  const saveError = useStore(store, (s) => s.saveError);
  const [draft, setDraft] = useState<Settings>(initial);
  const savedAt = useStore(store, (s) => s.savedAt);
  const saved = savedAt !== null && JSON.stringify(draft) === JSON.stringify(initial);

  const fieldError = (name: keyof Settings) => saveError?.fields?.[name]?.[0];
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    await store.getState().updateSettings(draft);
  };
  const set = <K extends keyof Settings>(k: K, v: Settings[K]) => {
    setDraft({ ...draft, [k]: v });
  };

  return (
    <form className="settings" onSubmit={onSubmit} aria-label="Settings" noValidate>
      <fieldset>
        <legend>Appearance</legend>
        <label className="field">
          <span>Theme</span>
          <select
            name="theme"
            value={draft.theme}
            onChange={(e) => set('theme', e.target.value as Settings['theme'])}
          >
            <option value="system">Follow the system</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
      </fieldset>
      <fieldset>
        <legend>Service</legend>
        <label className="check">
          <input
            type="checkbox"
            name="demoMode"
            checked={draft.demoMode}
            onChange={(e) => set('demoMode', e.target.checked)}
          />
          <span>
            Demo mode <span className="muted">— use the built-in simulated market; no key, no quota spent</span>
          </span>
        </label>
        <label className="field">
          <span>Service URL</span>
          <input
            type="url"
            name="serviceUrl"
            value={draft.serviceUrl}
            aria-invalid={fieldError('serviceUrl') ? true : undefined}
            aria-describedby={fieldError('serviceUrl') ? 'serviceUrl-error' : undefined}
            onChange={(e) => set('serviceUrl', e.target.value)}
          />
          {fieldError('serviceUrl') && (
            <span className="field-error" id="serviceUrl-error">
              {fieldError('serviceUrl')}
            </span>
          )}
        </label>
      </fieldset>
      <fieldset>
        <legend>Notifications</legend>
        <label className="check">
          <input
            type="checkbox"
            name="notificationsEnabled"
            checked={draft.notificationsEnabled}
            onChange={(e) => set('notificationsEnabled', e.target.checked)}
          />
          <span>Show alerts as system notifications (they always land in the Alerts inbox)</span>
        </label>
        {info?.shell === 'headless' && <BrowserNotificationPermission />}
        <label className="check">
          <input
            type="checkbox"
            name="quietHoursEnabled"
            checked={draft.quietHours.enabled}
            onChange={(e) => set('quietHours', { ...draft.quietHours, enabled: e.target.checked })}
          />
          <span>Quiet hours: hold alerts and send one digest when they end (checks go on)</span>
        </label>
        <div className="row">
          <label className="field">
            <span>From</span>
            <input
              type="time"
              name="quietStart"
              value={draft.quietHours.start}
              disabled={!draft.quietHours.enabled}
              onChange={(e) => set('quietHours', { ...draft.quietHours, start: e.target.value })}
            />
          </label>
          <label className="field">
            <span>Until</span>
            <input
              type="time"
              name="quietEnd"
              value={draft.quietHours.end}
              disabled={!draft.quietHours.enabled}
              onChange={(e) => set('quietHours', { ...draft.quietHours, end: e.target.value })}
            />
          </label>
        </div>
        {fieldError('quietHours') && <span className="field-error">{fieldError('quietHours')}</span>}
      </fieldset>
      <fieldset>
        <legend>Request budget</legend>
        <label className="field">
          <span>At most this many requests a day (empty: let the plan's quota decide)</span>
          <input
            type="number"
            name="requestsPerDay"
            min={1}
            inputMode="numeric"
            value={draft.requestsPerDay ?? ''}
            aria-invalid={fieldError('requestsPerDay') ? true : undefined}
            onChange={(e) => set('requestsPerDay', e.target.value === '' ? null : Number(e.target.value))}
          />
          {fieldError('requestsPerDay') && <span className="field-error">{fieldError('requestsPerDay')}</span>}
        </label>
        <p className="muted small">The free plan allows 100 requests a month (about 3 a day); Basic allows 30,000 (about 1,000 a day).</p>
      </fieldset>
      <div className="actions">
        <button type="submit" className="primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save settings'}
        </button>
        {saved && (
          <span className="ok" role="status">
            Saved.
          </span>
        )}
        {saveError && !saveError.fields && (
          <span className="field-error" role="alert">
            {saveError.message}
          </span>
        )}
      </div>
      {info && (
        <dl className="about">
          <dt>Data folder</dt>
          <dd>{info.dataDir}</dd>
          <dt>Database</dt>
          <dd>
            {info.dbPath} (schema {info.schemaVersion}, SQLite {info.versions.sqlite})
          </dd>
        </dl>
      )}
    </form>
  );
}
