/** The shell: header, session (API key), status notices and the page of the current route. */
import { AuthenticationError, isApiError } from '@skillport/sdk-browser';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { AppContext, type AppContextValue, type Session } from './app-context.js';
import { Icon } from './components/icon.js';
import { KeyDialog } from './components/key-dialog.js';
import { CatalogueData } from './lib/catalogue-data.js';
import { describeError, isAuthError } from './lib/errors.js';
import { href, useRoute, useScrollMemory } from './lib/router.js';
import { createClient, storeApiKey, storedApiKey } from './lib/session.js';
import { applyTheme, storedTheme, type Theme } from './lib/theme.js';
import { AddPage } from './pages/add-page.js';
import { CataloguePage } from './pages/catalogue-page.js';
import { SkillPage } from './pages/skill-page.js';

interface Notice {
  id: number;
  message: string;
  kind: 'info' | 'error';
}

const THEME_NEXT: Record<Theme, Theme> = { system: 'light', light: 'dark', dark: 'system' };
const THEME_LABEL: Record<Theme, string> = {
  system: 'Theme: system',
  light: 'Theme: light',
  dark: 'Theme: dark',
};

export function App() {
  const route = useRoute();
  useScrollMemory();
  const [client, setClient] = useState(createClient);
  const data = useMemo(() => new CatalogueData(client), [client]);
  const [session, setSession] = useState<Session>({
    authMode: 'unknown',
    user: null,
    hasKey: storedApiKey() !== null,
    version: null,
  });
  const [ready, setReady] = useState(false);
  const [keyPrompt, setKeyPrompt] = useState<string | null>(null);
  const [notices, setNotices] = useState<Notice[]>([]);
  const [theme, setTheme] = useState<Theme>(storedTheme);
  const noticeId = useRef(0);

  const notify = useCallback((message: string, kind: 'info' | 'error' = 'info') => {
    const id = ++noticeId.current;
    setNotices((list) => [...list.slice(-2), { id, message, kind }]);
    window.setTimeout(
      () => setNotices((list) => list.filter((n) => n.id !== id)),
      kind === 'error' ? 9000 : 4000,
    );
  }, []);

  const askKey = useCallback((reason?: string) => setKeyPrompt(reason ?? ''), []);

  const reportError = useCallback(
    (error: unknown) => {
      const message = describeError(error);
      if (isAuthError(error)) askKey(storedApiKey() ? 'The server refused this key.' : message);
      else notify(message, 'error');
      return message;
    },
    [askKey, notify],
  );

  // Who are we talking to: dev mode or keys, and whose key.
  useEffect(() => {
    let cancelled = false;
    client
      .initialize()
      .then((health) => {
        if (cancelled) return;
        const user =
          typeof health.account_id === 'string' && typeof health.user_id === 'string'
            ? { accountId: health.account_id, userId: health.user_id, role: String(health.role ?? '') }
            : null;
        setSession({
          authMode: health.auth_mode,
          user,
          hasKey: storedApiKey() !== null,
          version: health.version,
        });
        if (health.auth_mode === 'api_key' && !storedApiKey()) askKey('');
        else if (health.auth_mode === 'api_key' && !user) askKey('The server refused this key.');
        setReady(true);
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        setReady(true);
        reportError(error);
      });
    return () => {
      cancelled = true;
    };
  }, [client, askKey, reportError]);

  const useKey = (key: string | null) => {
    storeApiKey(key);
    setKeyPrompt(null);
    setClient(createClient());
  };

  const value: AppContextValue = { client, data, session, notify, reportError, askKey };
  const needsKey = session.authMode === 'api_key' && !session.user;

  return (
    <AppContext.Provider value={value}>
      <button type="button" class="skip-link" onClick={skipToMain}>
        Skip to content
      </button>
      <header class="topbar">
        <div class="topbar-inner">
          <a class="brand" href={href('/')} aria-label="Skillport catalogue">
            <Icon name="logo" />
            <span>Skillport</span>
          </a>
          <nav class="topnav" aria-label="Main">
            <a href={href('/')} aria-current={route.page === 'catalogue' ? 'page' : undefined}>
              Catalogue
            </a>
            <a href={href('/add')} aria-current={route.page === 'add' ? 'page' : undefined}>
              <Icon name="plus" /> Add skill
            </a>
          </nav>
          <div class="topbar-tools">
            {session.authMode === 'api_key' && (
              <button
                type="button"
                class="chip-button"
                onClick={() => askKey('')}
                title="API key of this tab"
              >
                <Icon name="key" />
                <span class="hide-narrow">{session.user ? session.user.userId : 'API key'}</span>
              </button>
            )}
            {session.authMode === 'dev' && (
              <span
                class="mode-badge"
                title="No API keys on this server: loopback only, you are user default"
              >
                dev mode
              </span>
            )}
            <button
              type="button"
              class="icon-button"
              onClick={() => {
                const next = THEME_NEXT[theme];
                applyTheme(next);
                setTheme(next);
              }}
              title={THEME_LABEL[theme]}
              aria-label={THEME_LABEL[theme]}
            >
              <Icon name={theme === 'dark' ? 'moon' : theme === 'light' ? 'sun' : 'contrast'} />
            </button>
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {!ready ? (
          <p class="loading-line" aria-live="polite">
            Connecting…
          </p>
        ) : needsKey ? (
          <section class="empty-state">
            <Icon name="key" />
            <h1>This registry needs an API key</h1>
            <p>
              Ask its administrator for a key. It is kept in this tab only and forgotten when the tab closes.
            </p>
            <button type="button" class="button primary" onClick={() => askKey('')}>
              Enter API key
            </button>
          </section>
        ) : route.page === 'catalogue' ? (
          <CataloguePage params={route.params} />
        ) : route.page === 'skill' ? (
          <SkillPage name={route.name} params={route.params} />
        ) : route.page === 'add' ? (
          <AddPage params={route.params} />
        ) : (
          <section class="empty-state">
            <h1>Page not found</h1>
            <a class="button" href={href('/')}>
              Back to the catalogue
            </a>
          </section>
        )}
      </main>
      <footer class="footer">
        Skillport{session.version ? ` ${session.version}` : ''} · <a href="./openapi.json">API (OpenAPI)</a>
      </footer>
      <div class="notices" aria-live="polite" role="status">
        {notices.map((n) => (
          <div key={n.id} class={`notice ${n.kind}`}>
            {n.message}
          </div>
        ))}
      </div>
      {keyPrompt !== null && (
        <KeyDialog
          reason={keyPrompt}
          hasKey={storedApiKey() !== null}
          onSubmit={(key) => useKey(key)}
          onForget={() => useKey(null)}
          onClose={() => setKeyPrompt(null)}
          validate={async (key) => {
            const probe = createClient(key);
            try {
              const health = await probe.initialize();
              if (health.auth_mode === 'api_key' && !health.user_id) return 'The server refused this key.';
              await probe.listSkills({ node_limit: 0 });
              return null;
            } catch (error) {
              if (error instanceof AuthenticationError || (isApiError(error) && error.status === 401)) {
                return 'The server refused this key.';
              }
              return describeError(error);
            } finally {
              probe.close();
            }
          }}
        />
      )}
    </AppContext.Provider>
  );
}

function skipToMain(event: Event) {
  event.preventDefault();
  document.getElementById('main')?.focus();
}
