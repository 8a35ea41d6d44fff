import { createContext, useContext, type ReactNode } from 'react';
import type { Bridge } from '../../../shared/ipc/bridge';

const ApiContext = createContext<Bridge | null>(null);

/**
 * Hands the way to core (the Electron preload's bridge, or the headless shell's HTTP bridge) to every view below
 * it. The app's entry chooses the bridge once and passes it in here; tests pass a typed fake the same way, so no
 * view depends on which bridge it talks through or on a module-level singleton.
 */
export function ApiProvider({ bridge, children }: { bridge: Bridge; children: ReactNode }) {
  return <ApiContext.Provider value={bridge}>{children}</ApiContext.Provider>;
}

/**
 * The bridge to core, for a view's reads, actions and live events. Throws when no ApiProvider is above: a view
 * rendered without one is a programming error, and saying so at once beats calls that silently go nowhere.
 */
export function useApi(): Bridge {
  const bridge = useContext(ApiContext);
  if (!bridge) throw new Error('useApi: no ApiProvider above this component');
  return bridge;
}
