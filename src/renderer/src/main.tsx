import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { api } from './api';
import { App } from './app/App';
import { createAppStore } from './app/appStore';
import './styles.css';

const store = createAppStore(api);
const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App store={store} api={api} />
    </StrictMode>,
  );
}
