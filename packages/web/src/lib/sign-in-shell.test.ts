import { afterEach, describe, expect, it, vi } from 'vitest';
import { releaseShellWhenScreenShows, SHELL_ELEMENT_ID } from './sign-in-shell.ts';

function page(release?: string): HTMLElement {
  document.body.innerHTML = `<div id="${SHELL_ELEMENT_ID}"${release ? ` data-release="${release}"` : ''}><img alt=""></div><div id="root"></div>`;
  return document.getElementById('root')!;
}

const flushObserver = () => new Promise((done) => setTimeout(done, 0));
const nextFrame = () => new Promise((done) => requestAnimationFrame(done));

describe('releaseShellWhenScreenShows', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps the shell over the spinner and removes it when the screen has its heading', async () => {
    const root = page();
    releaseShellWhenScreenShows(root);
    root.innerHTML = '<main><div role="status">Loading</div></main>';
    await flushObserver();
    expect(document.getElementById(SHELL_ELEMENT_ID)).not.toBeNull();
    root.innerHTML = '<main><h1>Log in</h1></main>';
    await flushObserver();
    // Still there for the frame that shows the screen under it, then gone.
    expect(document.getElementById(SHELL_ELEMENT_ID)).not.toBeNull();
    await nextFrame();
    await nextFrame();
    await flushObserver();
    expect(document.getElementById(SHELL_ELEMENT_ID)).toBeNull();
  });

  it('removes a shell that repeats the screen\'s texts with the mutation that brings the screen', async () => {
    const root = page('at-once');
    releaseShellWhenScreenShows(root);
    root.innerHTML = '<main><div role="status">Loading</div></main>';
    await flushObserver();
    expect(document.getElementById(SHELL_ELEMENT_ID)).not.toBeNull();
    root.innerHTML = '<main><h1>Dashboard</h1></main>';
    // Observers run before the next task: no frame and no other task sees the heading twice.
    await Promise.resolve();
    expect(document.getElementById(SHELL_ELEMENT_ID)).toBeNull();
  });

  it('removes it for a failure that has no heading, only an alert', async () => {
    const root = page();
    releaseShellWhenScreenShows(root);
    root.innerHTML = '<main><div role="alert">Cannot connect</div></main>';
    await flushObserver();
    await nextFrame();
    await nextFrame();
    await flushObserver();
    expect(document.getElementById(SHELL_ELEMENT_ID)).toBeNull();
  });

  it('never hides the app for long, whatever it shows', () => {
    vi.useFakeTimers();
    const root = page();
    releaseShellWhenScreenShows(root, 5000);
    vi.advanceTimersByTime(4999);
    expect(document.getElementById(SHELL_ELEMENT_ID)).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(document.getElementById(SHELL_ELEMENT_ID)).toBeNull();
  });

  it('does nothing on a page the server drew no shell for', () => {
    document.body.innerHTML = '<div id="root"></div>';
    expect(() => releaseShellWhenScreenShows(document.getElementById('root')!)).not.toThrow();
  });
});
