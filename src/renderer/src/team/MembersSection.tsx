import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { TeamMember } from '../../../shared/ipc/contract/team';
import type { ErrorPayload } from '../../../shared/ipc/errors';
import { ROLES, type Role } from '../../../shared/team';
import { ErrorNotice, fieldMessage } from '../components/ErrorNotice';
import { ConfirmAction, Progress, useNow } from '../components/watch/common';
import { dateTime, relative } from '../lib/format';
import { useCall, useCaller } from '../lib/useCall';
import { mayCall, onlyRoleCan, useMe, type TeamGated } from './me';
import { roleWord } from './WhoAmI';
import '../components/lwTable.css';
import '../components/watch/common.css';
import './team.css';

/** What each role may do, in one line, beside the role picker. */
const ROLE_MEANS: Record<Role, string> = {
  viewer: 'reads everything and keeps their own inbox',
  buyer: 'also changes searches, watches, rules and notes, and spends requests',
  admin: "also sets the key and the team's settings, and manages members",
};

/** A button a role may lack: shown disabled with the reason as its title when the member cannot use it. */
function GatedButton({
  method,
  what,
  onClick,
  children,
  disabled,
  reason,
  ...rest
}: {
  method: TeamGated;
  what: string;
  onClick: () => void;
  children: string;
  disabled?: boolean;
  /** Why it is off for another cause than the role (this is you). */
  reason?: string;
  'aria-label'?: string;
  'aria-pressed'?: boolean;
}) {
  const me = useMe();
  const allowed = mayCall(me, method);
  const why = !allowed ? onlyRoleCan(method, what) : disabled ? reason : undefined;
  return (
    <button
      type="button"
      className="lw-small"
      disabled={!allowed || disabled}
      title={why}
      onClick={onClick}
      {...rest}
    >
      {children}
    </button>
  );
}

/** The role picker with what the chosen role may do. */
function RoleField({
  value,
  onChange,
  error,
  id,
}: {
  value: Role;
  onChange: (r: Role) => void;
  error?: string;
  id: string;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>Role</label>
      <select
        id={id}
        name="role"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-means`}
        onChange={(e) => onChange(e.target.value as Role)}
      >
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {roleWord(r)}
          </option>
        ))}
      </select>
      <span className={error ? 'field-error' : 'muted small'} id={`${id}-means`}>
        {error ?? `${roleWord(value)}: ${ROLE_MEANS[value]}.`}
      </span>
    </div>
  );
}

/** A text or password input with its label and the server's message for it. */
function Field({
  name,
  label,
  value,
  onChange,
  error,
  type = 'text',
  autoComplete = 'off',
  autoFocus,
}: {
  name: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  type?: 'text' | 'password';
  autoComplete?: string;
  autoFocus?: boolean;
}) {
  const ref = useRef<HTMLInputElement>(null);
  const id = useId();
  useEffect(() => {
    if (autoFocus) ref.current?.focus();
  }, [autoFocus]);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        ref={ref}
        id={id}
        type={type}
        name={name}
        autoComplete={autoComplete}
        spellCheck={false}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {error && (
        <span className="field-error" id={`${id}-error`}>
          {error}
        </span>
      )}
    </div>
  );
}

/** Add member: login, name, role, a first password the admin hands over (`team.users.create`). */
function AddMemberForm({ onDone, onClose }: { onDone: (m: TeamMember) => void; onClose: () => void }) {
  const call = useCaller();
  const [login, setLogin] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('buyer');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorPayload | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const r = await call('team.users.create', { login, name, role, password });
    setBusy(false);
    if (r.ok) onDone(r.value.user);
    else setError(r.error);
  };
  const err = (f: string) => fieldMessage(error, f);
  return (
    <form
      className="lw-panel team-form team-add"
      onSubmit={submit}
      aria-label="Add member"
      noValidate
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
    >
      <h3>Add member</h3>
      <div className="team-form-grid">
        <Field name="login" label="Login" value={login} onChange={setLogin} error={err('login')} autoFocus />
        <Field name="name" label="Name" value={name} onChange={setName} error={err('name')} />
        <RoleField value={role} onChange={setRole} error={err('role')} id="add-role" />
        <Field
          name="password"
          label="First password (at least 10 characters)"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          error={err('password')}
        />
      </div>
      {error && !error.fields && <ErrorNotice error={error} />}
      <p className="muted small">
        Give them their login and first password in person or by phone; they change it under their name, at
        the top right.
      </p>
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Adding…' : 'Add member'}
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** One member's open editor below the list: their role, or a new password. */
type Editing = { kind: 'role' | 'password'; member: TeamMember };

/** Change role (`team.users.update`) or Reset password (`team.users.resetPassword`) of one member. */
function MemberEditor({
  editing,
  onDone,
  onClose,
}: {
  editing: Editing;
  onDone: (note: string) => void;
  onClose: () => void;
}) {
  const call = useCaller();
  const m = editing.member;
  const [role, setRole] = useState<Role>(m.role);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorPayload | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const r =
      editing.kind === 'role'
        ? await call('team.users.update', { id: m.id, role })
        : await call('team.users.resetPassword', { id: m.id, password });
    setBusy(false);
    if (!r.ok) return setError(r.error);
    onDone(
      editing.kind === 'role'
        ? `${m.name} is now ${role === 'admin' ? 'an' : 'a'} ${role}.`
        : `New password set for ${m.name}. Their sign-ins have ended; give them the new password.`,
    );
  };
  const err = (f: string) => fieldMessage(error, f);
  const title = editing.kind === 'role' ? `Change role · ${m.name}` : `Reset password · ${m.name}`;
  return (
    <form
      className="lw-panel team-form"
      onSubmit={submit}
      aria-label={title}
      noValidate
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
    >
      <h3>{title}</h3>
      <div className="team-form-grid">
        {editing.kind === 'role' ? (
          <RoleField value={role} onChange={setRole} error={err('role')} id="edit-role" />
        ) : (
          <Field
            name="password"
            label="New password (at least 10 characters)"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={setPassword}
            error={err('password')}
            autoFocus
          />
        )}
      </div>
      {error && !error.fields && <ErrorNotice error={error} />}
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Saving…' : editing.kind === 'role' ? 'Save role' : 'Set password'}
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Said on the buttons an admin cannot use on their own row. */
const NOT_YOURSELF = 'You cannot change your own role or disable your own account; another admin can.';

/** The admin's list of members with their actions (`team.users.list`). */
function MembersAdmin() {
  const me = useMe();
  const call = useCaller();
  const list = useCall('team.users.list');
  const { run } = list;
  const now = useNow();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<ErrorPayload | null>(null);
  const users = list.data?.users ?? [];

  /** A new action clears the last one's message. */
  const start = () => {
    setNote(null);
    setError(null);
  };
  const setDisabled = async (m: TeamMember, disabled: boolean) => {
    start();
    const r = await call('team.users.update', { id: m.id, disabled });
    if (r.ok)
      setNote(
        disabled
          ? `${m.name} is disabled: signed out everywhere, and cannot sign in until enabled.`
          : `${m.name} can sign in again.`,
      );
    else setError(r.error);
    void run();
  };

  return (
    <>
      <div className="lw-toolbar">
        <span className="muted small">
          {list.data ? `${users.length} member${users.length === 1 ? '' : 's'}` : ''}
        </span>
        {note && (
          <span className="ok small" role="status">
            {note}
          </span>
        )}
        <span className="spacer" />
        <GatedButton
          method="team.users.create"
          what="add members"
          aria-pressed={adding}
          onClick={() => {
            start();
            setEditing(null);
            setAdding((a) => !a);
          }}
        >
          Add member
        </GatedButton>
      </div>
      {adding && (
        <AddMemberForm
          onClose={() => setAdding(false)}
          onDone={(m) => {
            setAdding(false);
            setNote(`Added ${m.name} as ${m.role === 'admin' ? 'an' : 'a'} ${m.role}.`);
            void run();
          }}
        />
      )}
      {list.error && <ErrorNotice error={list.error} onRetry={() => void run()} />}
      {error && <ErrorNotice error={error} />}
      {!list.data && list.loading && <Progress label="Loading the members…" />}
      {users.length > 0 && (
        <div className="lw-table-wrap">
          <table className="lw-table team-members-table" aria-label="Team members">
            <thead>
              <tr>
                <th scope="col">Member</th>
                <th scope="col">Login</th>
                <th scope="col">Role</th>
                <th scope="col">Last sign-in</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.map((m) => {
                const self = me.user?.id === m.id;
                return (
                  <tr key={m.id} aria-label={m.name} className={m.disabled ? 'team-member-off' : undefined}>
                    <td>
                      <span className="team-member-name">{m.name}</span>
                      {self && <span className="lw-owner"> (you)</span>}
                      {m.disabled && <span className="lw-badge team-off-badge">Disabled</span>}
                    </td>
                    <td className="lw-mono">{m.login}</td>
                    <td>{roleWord(m.role)}</td>
                    <td title={m.last_sign_in_at ? dateTime(m.last_sign_in_at) : undefined}>
                      {m.last_sign_in_at ? relative(m.last_sign_in_at, now) : 'Never'}
                    </td>
                    <td>
                      <div className="team-actions">
                        <GatedButton
                          method="team.users.update"
                          what="change a member's role"
                          disabled={self}
                          reason={NOT_YOURSELF}
                          aria-label={`Change role of ${m.name}`}
                          onClick={() => {
                            start();
                            setAdding(false);
                            setEditing({ kind: 'role', member: m });
                          }}
                        >
                          Change role
                        </GatedButton>
                        {m.disabled ? (
                          <GatedButton
                            method="team.users.update"
                            what="enable a member"
                            aria-label={`Enable ${m.name}`}
                            onClick={() => void setDisabled(m, false)}
                          >
                            Enable
                          </GatedButton>
                        ) : self || !mayCall(me, 'team.users.update') ? (
                          <GatedButton
                            method="team.users.update"
                            what="disable a member"
                            disabled
                            reason={NOT_YOURSELF}
                            aria-label={`Disable ${m.name}`}
                            onClick={() => {}}
                          >
                            Disable
                          </GatedButton>
                        ) : (
                          <ConfirmAction
                            label="Disable"
                            question={`Disable ${m.name}?`}
                            confirmLabel="Disable"
                            onConfirm={() => void setDisabled(m, true)}
                          />
                        )}
                        <GatedButton
                          method="team.users.resetPassword"
                          what="reset a member's password"
                          aria-label={`Reset password of ${m.name}`}
                          onClick={() => {
                            start();
                            setAdding(false);
                            setEditing({ kind: 'password', member: m });
                          }}
                        >
                          Reset password
                        </GatedButton>
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {editing && (
        <MemberEditor
          key={`${editing.kind}-${editing.member.id}`}
          editing={editing}
          onClose={() => setEditing(null)}
          onDone={(text) => {
            setEditing(null);
            setNote(text);
            void run();
          }}
        />
      )}
    </>
  );
}

/**
 * Settings, Team members (a team server only): an admin sees every member (login, name, role, whether disabled,
 * last sign-in) and adds members, changes roles, disables and enables accounts and resets passwords. The buttons follow
 * METHOD_ROLES (src/shared/team.ts): a role that cannot use one sees it off with the reason; a member who may not
 * list the members reads who can. Nothing outside a team.
 */
export function MembersSection() {
  const me = useMe();
  if (!me.team || !me.user) return null;
  return (
    <div className="settings team-members">
      <fieldset>
        <legend>Team members</legend>
        {mayCall(me, 'team.users.list') ? (
          <MembersAdmin />
        ) : (
          <p className="muted small">
            {onlyRoleCan('team.users.list', "see and manage the team's members")} You are signed in as{' '}
            {me.user.role === 'admin' ? 'an' : 'a'} {me.user.role}.
          </p>
        )}
      </fieldset>
    </div>
  );
}
