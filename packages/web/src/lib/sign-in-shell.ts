/** The server's picture of a screen before the scripts run (packages/server/src/sign-in-shell.ts, account-shell.ts). */
export const SHELL_ELEMENT_ID = 'passgate-shell';

/** What says a screen of the SPA is in place: every screen has a heading, every failure an alert. */
const SCREEN_SHOWN = 'h1, [role="alert"]';

/**
 * Removes the server's shell once the SPA shows a screen of its own under it (not its spinner,
 * which would flash between the two), or after `timeoutMs` whatever happens, so nothing the SPA
 * shows can stay hidden behind it. The screen is drawn under the shell, which stays two more
 * frames: the browser then has presented the shell's paint before it goes. Removed earlier, its
 * logo (the largest thing the screen paints) would not count as painted, and the browser would
 * report the screen's identical logo, drawn after the scripts ran, as the largest contentful paint.
 */
export function releaseShellWhenScreenShows(root: HTMLElement, timeoutMs = 5000): void {
  const shell = document.getElementById(SHELL_ELEMENT_ID);
  if (!shell) return;
  const release = () => {
    observer.disconnect();
    clearTimeout(timer);
    shell.remove();
  };
  // A shell that repeats the screen's texts (the account area's) goes with the mutation that
  // brings the screen: two frames with every text twice would give a person's screen reader
  // nothing (it is hidden) but a test or a tool looking for a text two of them. Its paint needs no
  // holding: the scripts of an account page come long after the HTML.
  const atOnce = shell.dataset.release === 'at-once';
  const observer = new MutationObserver(() => {
    if (!root.querySelector(SCREEN_SHOWN)) return;
    observer.disconnect();
    if (atOnce) release();
    else requestAnimationFrame(() => requestAnimationFrame(release));
  });
  observer.observe(root, { childList: true, subtree: true });
  const timer = setTimeout(release, timeoutMs);
}
