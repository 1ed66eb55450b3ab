import { Suspense, type ComponentType } from 'react';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { lazyScreen } from './lazy-screen.ts';

function Page() {
  return <h1>Register</h1>;
}

/** Renders `Screen` under a Suspense whose fallback is a spy, and returns the spy. */
function renderWithFallback(Screen: ComponentType) {
  const fallbacks = vi.fn(() => <p>Loading</p>);
  const Fallback = () => fallbacks();
  render(
    <Suspense fallback={<Fallback />}>
      <Screen />
    </Suspense>,
  );
  return fallbacks;
}

describe('lazyScreen', () => {
  it('renders its screen at once, without the fallback, once preloaded', async () => {
    const load = vi.fn(async () => ({ default: Page }));
    const Screen = lazyScreen(load);
    await Screen.preload();
    const fallbacks = renderWithFallback(Screen);
    expect(screen.getByRole('heading', { name: 'Register' })).toBeInTheDocument();
    expect(fallbacks).not.toHaveBeenCalled();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('shows the fallback until its chunk comes when rendered first, and loads it once', async () => {
    let arrive!: (module: { default: typeof Page }) => void;
    const load = vi.fn(() => new Promise<{ default: typeof Page }>((done) => (arrive = done)));
    const Screen = lazyScreen(load);
    const fallbacks = renderWithFallback(Screen);
    expect(screen.getByText('Loading')).toBeInTheDocument();
    const preloaded = Screen.preload();
    await act(async () => {
      arrive({ default: Page });
      await preloaded;
    });
    expect(await screen.findByRole('heading', { name: 'Register' })).toBeInTheDocument();
    expect(fallbacks).toHaveBeenCalled();
    expect(load).toHaveBeenCalledTimes(1);
  });
});
