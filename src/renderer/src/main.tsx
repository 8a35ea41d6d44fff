import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { pickBridge } from './api';
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
      <App store={store} api={api} />
    </StrictMode>,
  );
}
