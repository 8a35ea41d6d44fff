import { useState, type FormEvent } from 'react';
import type { ErrorPayload } from '../../../shared/ipc/errors';
import type { Role } from '../../../shared/team';
import { ErrorNotice, fieldMessage } from '../components/ErrorNotice';
import { Modal } from '../components/Modal';
import { useCaller } from '../lib/useCall';
import { RowMenu } from '../features/watchlist/RowMenu';
import { useMe } from './me';
import './team.css';

/** A role as the page says it: "Viewer", "Buyer", "Admin". */
export function roleWord(role: Role): string {
  return role.charAt(0).toUpperCase() + role.slice(1);
}

/**
 * The signed-in member in the header ("Dana Lee · Buyer") with their menu: Change password, and Sign out when
 * `signOut` is given (a browser signed in on a team server). Nothing outside a team.
 */
export function WhoAmI({ signOut }: { signOut?: () => Promise<void> }) {
  const me = useMe();
  const [changing, setChanging] = useState(false);
  if (!me.team || !me.user) return null;
  const u = me.user;
  return (
    <>
      <RowMenu
        label={`Signed in as ${u.name} (${u.login}), ${roleWord(u.role)}`}
        className="team-whoami"
        trigger={
          <>
            <span className="team-whoami-name">{u.name}</span>
            <span className="team-whoami-role">{roleWord(u.role)}</span>
            <span aria-hidden="true" className="team-whoami-caret">
              ▾
            </span>
          </>
        }
        items={[
          { label: 'Change password', onSelect: () => setChanging(true) },
          ...(signOut ? [{ label: 'Sign out', onSelect: () => void signOut() }] : []),
        ]}
      />
      {changing && <ChangePasswordDialog onClose={() => setChanging(false)} />}
    </>
  );
}

/**
 * Change password (`team.password.change`): the current password, the new one twice. The two new ones must match
 * before anything is sent; the server checks the current one and the new one's length. On success the dialog
 * says so and the member's other sessions end (this one stays).
 */
export function ChangePasswordDialog({ onClose }: { onClose: () => void }) {
  const call = useCaller();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorPayload | null>(null);
  const [done, setDone] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (next !== again) {
      setError({
        code: 'bad_input',
        message: 'The two new passwords differ.',
        retryable: false,
        fields: { again: ['The two new passwords differ: type the new one again.'] },
      });
      return;
    }
    setBusy(true);
    setError(null);
    const r = await call('team.password.change', { current, next });
    setBusy(false);
    if (r.ok) {
      setDone(true);
      setCurrent('');
      setNext('');
      setAgain('');
    } else setError(r.error);
  };
  const err = (f: string) => fieldMessage(error, f);
  const field = (
    name: 'current' | 'next' | 'again',
    label: string,
    value: string,
    set: (v: string) => void,
    autoComplete: string,
  ) => (
    <div className="field">
      <label htmlFor={`pw-${name}`}>{label}</label>
      <input
        id={`pw-${name}`}
        type="password"
        name={name}
        autoComplete={autoComplete}
        value={value}
        data-autofocus={name === 'current' ? true : undefined}
        aria-invalid={err(name) ? true : undefined}
        aria-describedby={err(name) ? `pw-${name}-error` : undefined}
        onChange={(e) => set(e.target.value)}
      />
      {err(name) && (
        <span className="field-error" id={`pw-${name}-error`}>
          {err(name)}
        </span>
      )}
    </div>
  );
  return (
    <Modal title="Change password" onClose={onClose} className="team-dialog">
      <form onSubmit={submit} noValidate className="team-form">
        <h2>Change password</h2>
        {done ? (
          <p className="ok" role="status">
            Password changed. Your other sign-ins have ended; this one goes on.
          </p>
        ) : (
          <>
            {field('current', 'Current password', current, setCurrent, 'current-password')}
            {field('next', 'New password (at least 10 characters)', next, setNext, 'new-password')}
            {field('again', 'New password again', again, setAgain, 'new-password')}
            {error && !error.fields && <ErrorNotice error={error} />}
          </>
        )}
        <div className="actions">
          {!done && (
            <button type="submit" className="primary" disabled={busy}>
              {busy ? 'Changing…' : 'Change password'}
            </button>
          )}
          <button type="button" onClick={onClose}>
            {done ? 'Close' : 'Cancel'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
