import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useStore } from 'zustand';
import { DeskFields } from './DeskFields';
import type { MethodOutput, Status } from '../../../../shared/ipc/contract';
import type { ErrorPayload } from '../../../../shared/ipc/errors';
import type { Settings } from '../../../../shared/settings';
import { useApi } from '../../api/ApiContext';
import { andList } from '../../lib/format';
import { ErrorNotice } from '../../components/ErrorNotice';
import { UsageDetails } from '../../components/UsageDetails';
import { useCall, useCaller } from '../../lib/useCall';
import type { AppStore } from '../../app/appStore';
import { BackupsSection } from './BackupsSection';
import { ChannelsSection } from './ChannelsSection';
import { MembersSection } from '../../team/MembersSection';
import { TeamServerSection } from './TeamServerSection';
import './settings.css';

/** Asks the browser for permission to show alerts as notifications (headless shell only). */
function BrowserNotificationPermission() {
  const supported = typeof Notification !== 'undefined';
  const [permission, setPermission] = useState(supported ? Notification.permission : 'denied');
  if (!supported) return <p className="muted small">This browser cannot show notifications.</p>;
  if (permission === 'granted')
    return <p className="muted small">This browser will show alerts as notifications.</p>;
  if (permission === 'denied') {
    return (
      <p className="muted small">
        Notifications are blocked for this page; allow them in the browser's site settings.
      </p>
    );
  }
  return (
    <div>
      <button type="button" onClick={() => void Notification.requestPermission().then(setPermission)}>
        Allow browser notifications
      </button>
    </div>
  );
}

type KeyTest =
  | { kind: 'ok'; value: MethodOutput<'key.test'>; mode: Status['mode'] | null }
  | { kind: 'error'; error: ErrorPayload };

/** What a failed key test means, in the user's words: the code's own explanation first. */
export function explainKeyError(e: ErrorPayload): { title: string; advice: string } {
  switch (e.code) {
    case 'unauthorized':
      return {
        title: 'The service refused this key.',
        advice:
          'Check it for missing characters, or copy it again from your account on the service, then save it here.',
      };
    case 'forbidden':
      return {
        title: 'The key works, but its plan does not include usage data.',
        advice: 'Check the plan on the service.',
      };
    case 'rate_limited':
      // Not worth trying again: the plan's requests are used up until its period ends (the message says when).
      if (!e.retryable)
        return {
          title: e.message,
          advice: 'The key itself works. To go on before then, change the plan on the service.',
        };
      return {
        title: 'The key is known, but its quota or rate limit is reached right now.',
        advice: 'Wait a moment and test again; see Usage for the quota.',
      };
    case 'network':
    case 'timeout':
      return {
        title: 'The service could not be reached, so the key was not checked.',
        advice: 'Check the connection and the Service URL below, then test again.',
      };
    default:
      return { title: e.message, advice: 'Try again in a moment.' };
  }
}

/**
 * The API key: where it is kept, set (masked), test against GET /usage, and clear. The key is write-only: the
 * contract never returns it, so this section never shows it back.
 */
function ApiKeySection({
  status,
  statusError,
  refresh,
}: {
  status: Status | null;
  statusError: ErrorPayload | null;
  refresh: () => void;
}) {
  const call = useCaller();
  const [key, setKey] = useState('');
  const [show, setShow] = useState(false);
  const [busy, setBusy] = useState<null | 'set' | 'test' | 'clear'>(null);
  const [setError, setSetError] = useState<ErrorPayload | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [test, setTest] = useState<KeyTest | null>(null);
  const [confirmClear, setConfirmClear] = useState(false);
  const clearRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirmClear) clearRef.current?.focus();
  }, [confirmClear]);

  const keyError = setError?.fields?.['key']?.[0];
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setMessage(null);
    setTest(null);
    if (!key.trim()) {
      setSetError({
        code: 'bad_input',
        message: 'invalid',
        retryable: false,
        fields: { key: ['Paste your API key first.'] },
      });
      return;
    }
    setBusy('set');
    const r = await call('key.set', { key });
    setBusy(null);
    if (r.ok) {
      setKey('');
      setShow(false);
      setSetError(null);
      setMessage('Key saved. Use "Test key" to check that the service accepts it.');
      refresh();
    } else {
      setSetError(r.error);
    }
  };
  const runTest = async () => {
    setMessage(null);
    setBusy('test');
    const r = await call('key.test');
    setBusy(null);
    setTest(
      r.ok ? { kind: 'ok', value: r.value, mode: status?.mode ?? null } : { kind: 'error', error: r.error },
    );
    refresh();
  };
  const clear = async () => {
    setConfirmClear(false);
    setBusy('clear');
    const r = await call('key.clear');
    setBusy(null);
    setTest(null);
    if (r.ok) {
      setMessage('Key removed from this computer.');
      setSetError(null);
    } else {
      setSetError(r.error);
    }
    refresh();
  };

  const isSet = status?.key.set ?? false;
  return (
    <form className="settings" onSubmit={(e) => void save(e)} aria-label="API key" noValidate>
      <fieldset className="key-section" aria-busy={busy !== null}>
        <legend>API key</legend>
        {statusError && <ErrorNotice error={statusError} onRetry={refresh} />}
        {status && (
          <div className="key-status" role="status">
            <span className={isSet ? 'key-dot set' : 'key-dot'} aria-hidden="true" />
            <div>
              <strong>{isSet ? 'A key is set.' : 'No key is set.'}</strong>{' '}
              {isSet
                ? `It is kept in ${status.key.storage}.`
                : `A key you save is kept in ${status.key.storage}.`}
              {!isSet && status.key.stored_for && (
                <div className="key-elsewhere">
                  Your key was saved for {status.key.stored_for} and is not sent to the Service URL below,
                  which points elsewhere. Paste the key for that service, or set the Service URL back.
                </div>
              )}
              <div className="muted small key-mode">
                {status.mode === 'demo'
                  ? 'Demo mode is on: Lotwatch uses its simulated market and does not send the key anywhere.'
                  : isSet
                    ? 'Demo mode is off: Lotwatch sends this key to the service with every request.'
                    : 'Demo mode is off and there is no key: the service refuses every request. Set a key, or turn Demo mode on below.'}
              </div>
            </div>
          </div>
        )}
        {!status && !statusError && <p className="muted small">Checking the key…</p>}
        <div className="field">
          <label htmlFor="api-key-input">{isSet ? 'Replace the key' : 'API key'}</label>
          <div className="key-input">
            <input
              id="api-key-input"
              type={show ? 'text' : 'password'}
              name="apiKey"
              autoComplete="off"
              spellCheck={false}
              placeholder={
                isSet
                  ? 'Paste a new key to replace the stored one'
                  : 'Paste the key from your account on the service'
              }
              value={key}
              aria-invalid={keyError ? true : undefined}
              aria-describedby={keyError ? 'api-key-error' : 'api-key-hint'}
              onChange={(e) => {
                setKey(e.target.value);
                setSetError(null);
              }}
            />
            <button
              type="button"
              aria-pressed={show}
              aria-controls="api-key-input"
              onClick={() => setShow(!show)}
            >
              {show ? 'Hide' : 'Show'}
            </button>
            <button type="submit" className="primary" disabled={busy !== null}>
              {busy === 'set' ? 'Saving…' : 'Save key'}
            </button>
          </div>
          {keyError ? (
            <span className="field-error" id="api-key-error">
              {keyError}
            </span>
          ) : (
            <span className="muted small" id="api-key-hint">
              The key is stored encrypted and never shown again, not even here.
            </span>
          )}
        </div>
        {setError && !keyError && <ErrorNotice error={setError} />}
        <div className="actions">
          <button type="button" onClick={() => void runTest()} disabled={busy !== null}>
            {busy === 'test' ? 'Testing…' : 'Test key'}
          </button>
          {!confirmClear && (
            <button
              type="button"
              className="danger-button"
              onClick={() => setConfirmClear(true)}
              disabled={busy !== null || !isSet}
            >
              {busy === 'clear' ? 'Clearing…' : 'Clear key'}
            </button>
          )}
          <span className="muted small">Testing asks GET /usage: it spends 1 request.</span>
        </div>
        {confirmClear && (
          <div className="key-confirm" role="group" aria-label="Confirm clearing the key">
            <span>
              Remove the key from this computer? Lotwatch cannot use the real service until a key is set
              again.
            </span>
            <div className="actions">
              <button
                type="button"
                className="danger-button filled"
                ref={clearRef}
                onClick={() => void clear()}
              >
                Remove key
              </button>
              <button type="button" onClick={() => setConfirmClear(false)}>
                Cancel
              </button>
            </div>
          </div>
        )}
        {message && (
          <p className="ok key-message" role="status">
            {message}
          </p>
        )}
        {test?.kind === 'ok' && test.value.ok && (
          <div className="key-result good" role="status">
            <strong>
              {test.mode === 'demo' ? 'The simulated service answered.' : 'The service accepted the key.'}
            </strong>
            {test.mode === 'demo' && (
              <span className="muted small">
                {' '}
                Demo mode is on, so this did not check your key. Turn Demo mode off and save, then test again.
              </span>
            )}
            {test.value.usage && <UsageDetails usage={test.value.usage} />}
          </div>
        )}
        {test?.kind === 'ok' && !test.value.ok && (
          <div className="notice error" role="alert">
            <strong>There is no key to test.</strong>
            <span className="advice"> Paste a key above and save it, or turn Demo mode on.</span>
          </div>
        )}
        {test?.kind === 'error' && (
          <div className="notice error" role="alert">
            <strong>{explainKeyError(test.error).title}</strong>
            <span className="advice"> {explainKeyError(test.error).advice}</span>
          </div>
        )}
      </fieldset>
    </form>
  );
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Asked once Demo mode is off and Demo examples exist: core has already paused them (they must never run on the
 * user's real key), so without an answer they stay paused; "Remove them" deletes them (`examples.remove`), "Keep
 * them paused" keeps them for when Demo mode is on again.
 */
export function DemoExamplesQuestion({
  searches,
  watches,
  calls = 0,
  onDone,
}: {
  searches: number;
  watches: number;
  /** Example watched calls (the engine runs them only in Demo mode too). */
  calls?: number;
  onDone: (note: string) => void;
}) {
  const call = useCaller();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorPayload | null>(null);
  const what = andList([
    ...(searches ? [count(searches, 'saved search', 'saved searches')] : []),
    ...(watches ? [count(watches, 'watched lot', 'watched lots')] : []),
    ...(calls ? [count(calls, 'watched call', 'watched calls')] : []),
  ]);
  const remove = async () => {
    setBusy(true);
    const r = await call('examples.remove');
    setBusy(false);
    if (!r.ok) return setError(r.error);
    onDone(
      `Removed the Demo examples (${andList([
        count(r.value.searches, 'saved search', 'saved searches'),
        count(r.value.watches, 'watched lot', 'watched lots'),
        ...(r.value.calls > 0 ? [count(r.value.calls, 'watched call', 'watched calls')] : []),
      ])}).`,
    );
  };
  return (
    <div className="settings-question" role="group" aria-labelledby="demo-examples-q">
      <p id="demo-examples-q">
        <strong>Demo mode is off.</strong> Its examples ({what}) are paused so that they do not use your key's
        requests. Remove them, or keep them paused for when you turn Demo mode on again?
      </p>
      {error && <ErrorNotice error={error} />}
      <div className="actions">
        <button type="button" className="primary" onClick={() => void remove()} disabled={busy}>
          {busy ? 'Removing…' : 'Remove them'}
        </button>
        <button
          type="button"
          onClick={() => onDone('The Demo examples stay paused; they run again only in Demo mode.')}
          disabled={busy}
        >
          Keep them paused
        </button>
      </div>
    </div>
  );
}

/**
 * Settings: the API key, theme, Demo mode, service URL, notifications, the request budget and the backups. Field errors from
 * the contract show inline. The key status follows `settings.changed` (Demo mode decides whether it is used).
 * Turning Demo mode off asks what to do with Demo mode's examples (DemoExamplesQuestion).
 */
export function SettingsView({ store }: { store: AppStore }) {
  const onServer = useStore(store, (s) => s.info?.database === 'postgres');
  const api = useApi();
  const call = useCaller();
  const settings = useStore(store, (s) => s.settings);
  const [examples, setExamples] = useState<{ searches: number; watches: number; calls: number } | null>(null);
  const [examplesNote, setExamplesNote] = useState<string | null>(null);
  // After Demo mode was turned off and saved: are there examples to ask about? (Three local reads, no request.)
  const askAboutExamples = async () => {
    const [s, w, c] = await Promise.all([
      call('searches.list'),
      call('watchlist.list'),
      call('callWatches.list'),
    ]);
    const searches = s.ok ? s.value.filter((x) => x.is_example).length : 0;
    const watches = w.ok ? w.value.filter((x) => x.is_example).length : 0;
    const calls = c.ok ? c.value.filter((x) => x.is_example).length : 0;
    setExamplesNote(null);
    setExamples(searches + watches + calls > 0 ? { searches, watches, calls } : null);
  };
  const status = useCall('status.get');
  const refresh = status.run;
  useEffect(
    () =>
      api.on((e) => {
        if (e.name === 'settings.changed') void refresh();
      }),
    [api, refresh],
  );
  return (
    <div className="settings-page">
      <ApiKeySection status={status.data} statusError={status.error} refresh={() => void refresh()} />
      {examples && (
        <DemoExamplesQuestion
          searches={examples.searches}
          watches={examples.watches}
          calls={examples.calls}
          onDone={(note) => {
            setExamples(null);
            setExamplesNote(note);
          }}
        />
      )}
      {examplesNote && (
        <p className="ok" role="status">
          {examplesNote}
        </p>
      )}
      {settings ? (
        // A new stored value (saved here or changed elsewhere) starts a fresh draft.
        <SettingsForm
          key={JSON.stringify(settings)}
          store={store}
          initial={settings}
          keySet={status.data?.key.set ?? null}
          onDemoOff={() => void askAboutExamples()}
        />
      ) : (
        <p className="muted">Loading settings…</p>
      )}
      {/* Outside the settings form: saving a setting (or a pause from the tray) re-creates the form's draft, and must
          not throw away a channel being typed or a Test result on screen. */}
      <ChannelsSection />
      <TeamServerSection />
      <MembersSection />
      <BackupsSection onServer={onServer} />
    </div>
  );
}

function SettingsForm({
  store,
  initial,
  keySet,
  onDemoOff,
}: {
  store: AppStore;
  initial: Settings;
  keySet: boolean | null;
  /** Called after a save that turned Demo mode off. */
  onDemoOff: () => void;
}) {
  const info = useStore(store, (s) => s.info);
  const saving = useStore(store, (s) => s.saving);
  const saveError = useStore(store, (s) => s.saveError);
  const [draft, setDraft] = useState<Settings>(initial);
  const savedAt = useStore(store, (s) => s.savedAt);
  const saved = savedAt !== null && JSON.stringify(draft) === JSON.stringify(initial);

  const fieldError = (name: keyof Settings) => saveError?.fields?.[name]?.[0];
  // Quiet hours errors arrive per part (`quietHours.start`) or for the whole (`quietHours`).
  const quietErrors = Object.entries(saveError?.fields ?? {})
    .filter(([k]) => k === 'quietHours' || k.startsWith('quietHours.'))
    .flatMap(([, m]) => m);
  const quietPartError = (part: 'start' | 'end') => saveError?.fields?.[`quietHours.${part}`]?.[0];
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const demoOff = initial.demoMode && !draft.demoMode;
    if ((await store.getState().updateSettings(draft)) && demoOff) onDemoOff();
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
            Demo mode{' '}
            <span className="muted">— use the built-in simulated market; no key needed, no quota spent</span>
            <span className="muted small demo-hint" id="demoMode-hint">
              When off, Lotwatch calls the real service with your API key (above) and spends your plan's
              requests.
            </span>
          </span>
        </label>
        {!draft.demoMode && keySet === false && (
          <p className="settings-warning" role="status">
            Without an API key the service refuses every request. Set a key above before turning Demo mode
            off.
          </p>
        )}
        <div className="field">
          <label htmlFor="settings-serviceUrl">Service URL</label>
          <input
            id="settings-serviceUrl"
            type="url"
            name="serviceUrl"
            value={draft.serviceUrl}
            aria-invalid={fieldError('serviceUrl') ? true : undefined}
            aria-describedby={fieldError('serviceUrl') ? 'serviceUrl-error' : 'serviceUrl-hint'}
            onChange={(e) => set('serviceUrl', e.target.value)}
          />
          {fieldError('serviceUrl') ? (
            <span className="field-error" id="serviceUrl-error">
              {fieldError('serviceUrl')}
            </span>
          ) : (
            <span className="muted small" id="serviceUrl-hint">
              Used when Demo mode is off.
            </span>
          )}
        </div>
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
        {info?.shell === 'electron' && (
          <label className="check">
            <input
              type="checkbox"
              name="openAtLogin"
              checked={draft.openAtLogin}
              onChange={(e) => set('openAtLogin', e.target.checked)}
            />
            <span>
              Start Lotwatch when I log in{' '}
              <span className="muted">
                — closing the window keeps it watching in the tray; quit from the tray menu
              </span>
            </span>
          </label>
        )}
        <label className="check">
          <input
            type="checkbox"
            name="quietHoursEnabled"
            checked={draft.quietHours.enabled}
            onChange={(e) => set('quietHours', { ...draft.quietHours, enabled: e.target.checked })}
          />
          <span>Quiet hours: hold alerts and send them as one summary when they end (checks go on)</span>
        </label>
        <div className="row">
          <label className="field">
            <span>From</span>
            <input
              type="time"
              name="quietStart"
              value={draft.quietHours.start}
              disabled={!draft.quietHours.enabled}
              aria-invalid={quietPartError('start') ? true : undefined}
              aria-describedby={quietErrors.length > 0 ? 'quiet-error' : undefined}
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
              aria-invalid={quietPartError('end') ? true : undefined}
              aria-describedby={quietErrors.length > 0 ? 'quiet-error' : undefined}
              onChange={(e) => set('quietHours', { ...draft.quietHours, end: e.target.value })}
            />
          </label>
        </div>
        {quietErrors.length > 0 && (
          <span className="field-error" id="quiet-error">
            Quiet hours: {quietErrors.join(' ')}
          </span>
        )}
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
          {fieldError('requestsPerDay') && (
            <span className="field-error">{fieldError('requestsPerDay')}</span>
          )}
        </label>
        <p className="muted small">
          The free plan allows 100 requests a month (about 3 a day); Basic allows 30,000 (about 1,000 a day).
        </p>
      </fieldset>
      <fieldset>
        <legend>What Lotwatch keeps</legend>
        <label className="field">
          <span>Keep every observation of a lot for this many days after its sale</span>
          <input
            type="number"
            name="retentionDays"
            min={7}
            max={3650}
            inputMode="numeric"
            value={draft.retentionDays}
            aria-invalid={fieldError('retentionDays') ? true : undefined}
            onChange={(e) => set('retentionDays', Number(e.target.value))}
          />
          {fieldError('retentionDays') && <span className="field-error">{fieldError('retentionDays')}</span>}
        </label>
        <ul className="muted small retention-policy">
          <li>
            A poll that finds a lot unchanged stores no new copy of it; every change stays on the lot&apos;s
            timeline for good.
          </li>
          <li>
            {draft.retentionDays} days after a sale, a lot&apos;s observations are folded into its timeline; a
            lot you do not watch, note or tag keeps only its record (without photos) and sale result, for
            comparable sales.
          </li>
          <li>The request log and poll history keep 30 days; alerts you have read keep 180 days.</li>
          <li>At most 50 photo addresses are kept per lot, with the count of all of them.</li>
          <li>Lotwatch tidies up once a day, a little at a time, while it keeps watching.</li>
        </ul>
      </fieldset>
      <DeskFields
        value={draft.desk}
        onChange={(d) => set('desk', d)}
        fieldError={(path) =>
          saveError?.fields?.[`desk.${path}`]?.[0] ??
          (path === '' ? saveError?.fields?.['desk']?.[0] : undefined)
        }
      />
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
        {saveError?.fields && (
          <span className="field-error" role="alert">
            Nothing was saved: correct the highlighted fields.
          </span>
        )}
      </div>
      {info && (
        <dl className="about">
          <dt>Data folder</dt>
          <dd>{info.dataDir}</dd>
          <dt>Database</dt>
          <dd>
            {info.dbPath} (schema {info.schemaVersion},{' '}
            {info.database === 'postgres'
              ? `PostgreSQL ${info.versions.postgres ?? ''}`.trim()
              : `SQLite ${info.versions.sqlite}`}
            )
          </dd>
        </dl>
      )}
    </form>
  );
}
