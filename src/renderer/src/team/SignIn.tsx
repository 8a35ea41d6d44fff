import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { SignInOutcome } from './session';
import './team.css';

/** Said for any refused login or password: one text for both, so the page never tells which logins exist. */
export const WRONG_SIGN_IN = 'The login or the password is not right. Check both, then sign in again.';

/** "Wait 42 seconds", "Wait 3 minutes": how long until the team server takes the next sign-in. */
export function waitWords(seconds: number): string {
  if (seconds <= 90) return `Wait ${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `Wait ${minutes} minutes`;
}

/** What the sign-in says after a refused sign-in (any outcome but `ok`). */
function refusalText(o: Exclude<SignInOutcome, { ok: true }>, secondsLeft: number): string {
  switch (o.reason) {
    case 'wrong':
      return WRONG_SIGN_IN;
    case 'throttled':
      return secondsLeft > 0
        ? `Too many sign-ins failed. ${waitWords(secondsLeft)}, then sign in again.`
        : 'Too many sign-ins failed. You can sign in again now.';
    case 'unreachable':
      return 'The team server is not reachable. Check the connection, then sign in again.';
    case 'other':
      return o.message;
  }
}

/**
 * The team server's sign-in: login and password, Enter signs in. The focus starts on the login (on the password
 * when the login is known: a session that ended). A wrong login or password gets one uniform text and keeps the
 * login; too many failures say how long to wait, counting down, and the button waits with them. `ended`: the
 * member's session ended while the app was open (it stays underneath, as it was) and they sign in to go on.
 * @param signIn the session's sign-in (TeamSession.signIn); the screen goes away by itself once it succeeds.
 */
export function SignIn({
  signIn,
  ended = false,
  login: knownLogin = '',
}: {
  signIn: (login: string, password: string) => Promise<SignInOutcome>;
  ended?: boolean;
  login?: string;
}) {
  const [login, setLogin] = useState(knownLogin);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<Exclude<SignInOutcome, { ok: true }> | null>(null);
  const [waitUntil, setWaitUntil] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const loginRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    (knownLogin ? passwordRef : loginRef).current?.focus();
  }, [knownLogin]);

  // The wait of a throttled sign-in counts down by the second, and ends by itself.
  useEffect(() => {
    if (waitUntil === null) return;
    const t = setInterval(() => {
      const at = Date.now();
      setNow(at);
      if (at >= waitUntil) setWaitUntil(null);
    }, 1000);
    return () => clearInterval(t);
  }, [waitUntil]);

  // After a refusal the password is asked again, with the login kept.
  useEffect(() => {
    if (refused) passwordRef.current?.focus();
  }, [refused]);

  const secondsLeft = waitUntil === null ? 0 : Math.max(1, Math.ceil((waitUntil - now) / 1000));
  const waiting = waitUntil !== null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || waiting) return;
    if (!login.trim() || !password) {
      (login.trim() ? passwordRef : loginRef).current?.focus();
      return;
    }
    setBusy(true);
    setRefused(null);
    const outcome = await signIn(login.trim(), password);
    setBusy(false);
    if (outcome.ok) return;
    setRefused(outcome);
    setPassword('');
    if (outcome.reason === 'throttled') {
      const at = Date.now();
      setNow(at);
      setWaitUntil(at + outcome.retryAfterS * 1000);
    }
  };

  return (
    <div className={ended ? 'signin signin-over' : 'signin'}>
      <form className="signin-card" onSubmit={submit} aria-labelledby="signin-title" noValidate>
        <h1 id="signin-title">
          <span className="brand-mark" aria-hidden="true">
            ◎
          </span>{' '}
          Sign in to Lotwatch
        </h1>
        <p className="muted signin-lead">
          {ended
            ? 'Your session ended. Sign in again to go on where you were; what you typed is still there.'
            : "This Lotwatch is your team's. Sign in with the login and password your team's admin gave you."}
        </p>
        <label className="field">
          <span>Login</span>
          <input
            ref={loginRef}
            type="text"
            name="login"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            value={login}
            readOnly={busy}
            onChange={(e) => setLogin(e.target.value)}
          />
        </label>
        <label className="field">
          <span>Password</span>
          <input
            ref={passwordRef}
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            readOnly={busy}
            aria-describedby={refused ? 'signin-error' : undefined}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        {refused && (
          <p className="field-error signin-error" id="signin-error" role="alert">
            {refusalText(refused, secondsLeft)}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy || waiting}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="muted small">Forgot your password? Ask your team&apos;s admin to set a new one.</p>
      </form>
    </div>
  );
}
