import { useMemo } from 'react';
import { useStore } from 'zustand';
import type { Bridge } from '../../../shared/ipc/bridge';
import { App } from '../app/App';
import { createAppStore } from '../app/appStore';
import type { TeamSession } from './session';
import { SignIn } from './SignIn';

/**
 * The browser page of a team server: the sign-in screen until someone signs in, then the app for them. When their
 * session ends (a 401 from any call) the sign-in shows over the app, which stays as it was underneath (inert), so
 * what was typed in other screens is still there; the same member signing in again goes on there, and the calls
 * refused meanwhile are sent again by the bridge. Another member signing in gets a fresh app (appKey), and Sign
 * out leaves no app behind.
 */
export function TeamShell({ api, session }: { api: Bridge; session: TeamSession }) {
  const phase = useStore(session.store, (s) => s.phase);
  const user = useStore(session.store, (s) => s.user);
  const appKey = useStore(session.store, (s) => s.appKey);
  // One app store per app instance: another member never sees the views, settings or drafts of the one before.
  const store = useMemo(() => (appKey === null ? null : createAppStore(api)), [api, appKey]);
  const ended = phase === 'ended';
  return (
    <>
      {store && user && appKey !== null && (
        <div className="team-app" key={appKey} inert={ended} aria-hidden={ended || undefined}>
          <App store={store} api={api} team={{ user, signOut: session.signOut }} />
        </div>
      )}
      {phase !== 'signed-in' && (
        <SignIn
          key={phase}
          signIn={session.signIn}
          ended={ended && !!store}
          login={ended ? (user?.login ?? '') : ''}
        />
      )}
    </>
  );
}
