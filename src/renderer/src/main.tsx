import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { pickBridge, tokenMissing } from './api';
import { App } from './app/App';
import { createAppStore } from './app/appStore';
import './styles.css';

// The one place that chooses the bridge to core (preload or HTTP); the app hands it to the views.
const api = pickBridge();
const store = createAppStore(api);
const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      {tokenMissing() ? (
        // The browser shell opened without its token: every call would be refused, so say what to open instead.
        <main className="lw-view">
          <h1>Lotwatch</h1>
          <p>
            This tab has no Lotwatch token. Open the full address printed by <code>npm run serve</code> (it
            ends with ?token=…). A tab keeps its token when you reload it; a new tab needs that address.
          </p>
        </main>
      ) : (
        <App store={store} api={api} />
      )}
    </StrictMode>,
  );
}
