import { useState, type FormEvent } from 'react';
import type { TeamLinkState } from '../../../../shared/ipc/contract/teamLink';
import type { ErrorPayload } from '../../../../shared/ipc/errors';
import { ErrorNotice, fieldMessage } from '../../components/ErrorNotice';
import { ConfirmAction } from '../../components/watch/common';
import { useCall, useCaller } from '../../lib/useCall';
import { roleWord } from '../../team/WhoAmI';
import '../../components/watch/common.css';

/** Asked before leaving: what the buyer gets back. */
export const LEAVE_QUESTION =
  'Leave the team? Your own watchlist and alerts on this computer come back as you left them.';

type Field = 'server' | 'login' | 'password';

/**
 * Settings, Team server (docs/team.md): the desktop app joins a team's Lotwatch server with its address and the
 * member's login and password (Enter joins), and from then on shows the team's data in every view; this computer's
 * own data waits, unchanged, until the app leaves the team (asked first). A session the server ended is signed in
 * again here. Shown only where the link exists (`teamLink.get` says available: the desktop app). Joining and
 * leaving load the window again, so what is on screen after either comes from the new place.
 */
export function TeamServerSection() {
  const got = useCall('teamLink.get');
  const call = useCaller();
  const [state, setState] = useState<TeamLinkState | null>(null);
  const [server, setServer] = useState('');
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorPayload | null>(null);
  // The answer of the last join or leave, else what the link said when the section opened.
  const link = state ?? got.data;
  if (!link?.available) return null;
  const again = link.joined && !link.signed_in;

  const join = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    const r = await call('teamLink.join', {
      server: again ? (link.server ?? '') : server,
      login: again ? (link.login ?? '') : login,
      password,
    });
    setBusy(false);
    setPassword('');
    if (r.ok) setState(r.value);
    else setError(r.error);
  };
  const leave = async () => {
    setBusy(true);
    setError(null);
    const r = await call('teamLink.leave');
    setBusy(false);
    if (r.ok) setState(r.value);
    else setError(r.error);
  };

  const err = (f: Field) => fieldMessage(error, f);
  const input = (
    name: Field,
    label: string,
    value: string,
    set: (v: string) => void,
    extra: { type: string; autoComplete: string; placeholder?: string },
  ) => (
    <div className="field">
      <label htmlFor={`team-link-${name}`}>{label}</label>
      <input
        id={`team-link-${name}`}
        name={name}
        value={value}
        readOnly={busy}
        spellCheck={false}
        autoCapitalize="none"
        aria-invalid={err(name) ? true : undefined}
        aria-describedby={err(name) ? `team-link-${name}-error` : undefined}
        onChange={(e) => set(e.target.value)}
        {...extra}
      />
      {err(name) && (
        <span className="field-error" id={`team-link-${name}-error`}>
          {err(name)}
        </span>
      )}
    </div>
  );
  const passwordField = input('password', 'Password', password, setPassword, {
    type: 'password',
    autoComplete: 'current-password',
  });
  const notice = error && <ErrorNotice error={error} fieldsShown />;
  const leaveButton = (
    <ConfirmAction
      label="Leave team"
      question={LEAVE_QUESTION}
      confirmLabel="Leave team"
      onConfirm={() => void leave()}
      busy={busy}
    />
  );

  return (
    <div className="settings">
      <fieldset className="team-link-section" aria-busy={busy}>
        <legend>Team server</legend>
        {link.joined && link.signed_in && (
          <>
            <p role="status">
              Using <strong>{link.server}</strong> as {link.user?.name ?? link.login}
              {link.user ? ` (${roleWord(link.user.role)})` : ''}.
            </p>
            <p className="muted small">
              Every view shows the team&apos;s searches, watches and inbox, and notifications for you come
              from the team. Your own data on this computer is kept as it was, and is not watched while you
              use the team.
            </p>
            {notice}
            <div className="actions">{leaveButton}</div>
          </>
        )}
        {again && (
          <form onSubmit={(e) => void join(e)} noValidate aria-label="Sign in to the team server again">
            <p role="status">
              Your session on <strong>{link.server}</strong> ended. Enter the password of {link.login} to go
              on with the team, or leave it.
            </p>
            {passwordField}
            {notice}
            <div className="actions">
              <button type="submit" className="primary" disabled={busy}>
                {busy ? 'Signing in…' : 'Sign in again'}
              </button>
              {leaveButton}
            </div>
          </form>
        )}
        {!link.joined && (
          <form onSubmit={(e) => void join(e)} noValidate aria-label="Join a team server">
            <p className="muted small">
              Use a team&apos;s Lotwatch server instead of the data on this computer: enter its address and
              the login and password your team&apos;s admin gave you. Your own data stays here, unchanged, for
              when you leave the team.
            </p>
            {input('server', 'Address', server, setServer, {
              type: 'url',
              autoComplete: 'url',
              placeholder: 'https://lotwatch.example.com',
            })}
            {input('login', 'Login', login, setLogin, { type: 'text', autoComplete: 'username' })}
            {passwordField}
            {notice}
            <div className="actions">
              <button type="submit" className="primary" disabled={busy}>
                {busy ? 'Joining…' : 'Join team'}
              </button>
            </div>
          </form>
        )}
      </fieldset>
    </div>
  );
}
