import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, setApiToken } from './api.js';
import { ChatPage } from './chat-page.js';
import { DashboardPage } from './dashboard-page.js';
import { HistoryPage } from './history-page.js';
import { takeToken } from './token.js';
import type { ServeConfig } from './types.js';

const routes = [
  { hash: '#/chat', name: 'Chat' },
  { hash: '#/history', name: 'History' },
  { hash: '#/dashboard', name: 'Dashboard' },
] as const;

type Route = (typeof routes)[number]['hash'];

function currentRoute(): Route {
  return routes.find((r) => r.hash === location.hash)?.hash ?? '#/chat';
}

/** The shell: the token, the config, the navigation and the page of the address's fragment. */
export function App() {
  const [token] = useState(takeToken);
  const [route, setRoute] = useState<Route>(currentRoute);
  const [config, setConfig] = useState<ServeConfig | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const onHash = () => setRoute(currentRoute());
    addEventListener('hashchange', onHash);
    // Effects run after the first paint: an address changed before then fired its hashchange to no one.
    onHash();
    return () => removeEventListener('hashchange', onHash);
  }, []);

  useEffect(() => {
    if (!token) return;
    setApiToken(token);
    api<ServeConfig>('/api/config')
      .then(setConfig)
      .catch((e: unknown) => setError(e instanceof ApiError ? e.message : String(e)));
  }, [token]);

  useEffect(() => {
    const name = routes.find((r) => r.hash === route)?.name ?? 'Chat';
    document.title = `${name} · Council`;
  }, [route]);

  return (
    <>
      <a
        class="skip"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Council</span>
        <nav aria-label="Pages">
          {routes.map((r) => (
            <a key={r.hash} href={r.hash} aria-current={route === r.hash ? 'page' : undefined}>
              {r.name}
            </a>
          ))}
        </nav>
        {config?.demo && (
          <span class="badge badge-demo" title="Offline demo: the personas of council demo, no API key, no network">
            demo: simulated sessions
          </span>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {!token ? (
          <p class="error" role="alert">
            No access token. Open the address <code>council serve</code> printed: it ends in <code>#token=…</code>.
          </p>
        ) : (
          <>
            {error && (
              <p class="error" role="alert">
                {error}
              </p>
            )}
            {/* The chat renders at once (its options follow the config) and stays mounted to keep its conversation. */}
            <div hidden={route !== '#/chat'}>
              <ChatPage config={config} />
            </div>
            {route === '#/history' &&
              (config ? <HistoryPage config={config} /> : !error && <p class="muted">Loading…</p>)}
            {route === '#/dashboard' && <DashboardPage />}
          </>
        )}
      </main>
    </>
  );
}
