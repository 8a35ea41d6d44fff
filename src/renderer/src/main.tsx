import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { createAppStore } from './app/appStore';
import { chooseShell } from './team/boot';
import { TeamShell } from './team/TeamShell';
import './styles.css';

// The one place that chooses the bridge to core (preload, the single-user page's token, or a team server's
// sign-in); the app hands it to the views.
const root = document.getElementById('root');
if (root) {
  const reactRoot = createRoot(root);
  void chooseShell().then((boot) => {
    if (boot.kind === 'team') {
      reactRoot.render(
        <StrictMode>
          <TeamShell api={boot.api} session={boot.session} />
        </StrictMode>,
      );
      return;
    }
    const store = createAppStore(boot.api);
    reactRoot.render(
      <StrictMode>
        {boot.kind === 'single' && boot.tokenMissing ? (
          // The browser shell opened without its token: every call would be refused, so say what to open instead.
          <main className="lw-view">
            <h1>Lotwatch</h1>
            <p>
              This tab has no Lotwatch token. Open the full address printed by <code>npm run serve</code> (it
              ends with ?token=…). A tab keeps its token when you reload it; a new tab needs that address.
            </p>
          </main>
        ) : (
          <App store={store} api={boot.api} />
        )}
      </StrictMode>,
    );
  });
}
