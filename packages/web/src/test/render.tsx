import type { ReactNode } from 'react';
import { act, queries, render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { AppProviders, AppRoutes, reportCaughtError } from '../App.tsx';

/**
 * Renders inside an awaited act(): screens that read their data with React's `use()` suspend, and
 * React retries them only within an awaited act scope.
 */
async function renderAwaited(ui: ReactNode) {
  let result: ReturnType<typeof render> | undefined;
  await act(async () => {
    // As in main.tsx: a failed request caught by a screen's boundary is shown, not logged.
    result = render(ui, { queries, onCaughtError: reportCaughtError });
  });
  if (!result) throw new Error('render did not run');
  return result;
}

/** Renders the whole app at `path` (with optional route state), as the browser would show it. */
export function renderApp(path: string, state?: unknown) {
  const url = new URL(path, 'http://localhost:3000');
  return renderAwaited(
    <AppProviders>
      <MemoryRouter initialEntries={[{ pathname: url.pathname, search: url.search, state }]}>
        <AppRoutes />
      </MemoryRouter>
    </AppProviders>,
  );
}

/** Renders `children` in a router at `path` (with optional route state), for screens tested outside the app's route table. */
export function renderInRouter(path: string, children: ReactNode, state?: unknown) {
  const url = new URL(path, 'http://localhost:3000');
  return renderAwaited(
    <AppProviders>
      <MemoryRouter initialEntries={[{ pathname: url.pathname, search: url.search, state }]}>{children}</MemoryRouter>
    </AppProviders>,
  );
}

/** Shows where the router went and with which state. */
export function LocationProbe() {
  const location = useLocation();
  return (
    <div data-testid="location" data-state={JSON.stringify(location.state ?? null)}>
      {location.pathname}
      {location.search}
    </div>
  );
}
