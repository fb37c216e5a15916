/** What every page shares: the API client, the catalogue cache, the session and notices. */
import type { AsyncHTTPClient } from '@skillport/sdk-browser';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { CatalogueData } from './lib/catalogue-data.js';

export interface Session {
  authMode: 'dev' | 'api_key' | 'unknown';
  /** Who the key belongs to, when the server said. */
  user: { accountId: string; userId: string; role: string } | null;
  hasKey: boolean;
  version: string | null;
}

export interface AppContextValue {
  client: AsyncHTTPClient;
  data: CatalogueData;
  session: Session;
  /** Shows a short message in the status area (`error` for failures). */
  notify: (message: string, kind?: 'info' | 'error') => void;
  /** Handles a failed call: asks for a key on 401, else shows the message. Returns the message. */
  reportError: (error: unknown) => string;
  /** Opens the API key prompt. */
  askKey: (reason?: string) => void;
}

export const AppContext = createContext<AppContextValue | null>(null);

/** The app context (inside `<App>`). */
export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('useApp outside <App>');
  return value;
}
