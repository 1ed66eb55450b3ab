import { useEffect, useLayoutEffect } from 'react';
import { usePreviewMode } from '../lib/preview-mode.ts';

/**
 * Sets the browser tab's title while the screen is shown. In the commit of the screen, not after
 * it is painted: a passive effect can run after the screen is visible (and announced), leaving the
 * previous screen's title on it for a moment.
 */
export function useDocumentTitle(title: string | undefined): void {
  const preview = usePreviewMode();
  useLayoutEffect(() => {
    if (title && !preview) document.title = title;
  }, [title, preview]);
}

/** Shows the client's icon as the tab's icon while the screen is shown, then restores the app's. */
export function useFavicon(href: string | null | undefined): void {
  const preview = usePreviewMode();
  useEffect(() => {
    if (!href || preview) return;
    const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!link) return;
    const previous = { href: link.getAttribute('href'), type: link.getAttribute('type') };
    link.setAttribute('href', href);
    link.removeAttribute('type');
    return () => {
      if (previous.href) link.setAttribute('href', previous.href);
      if (previous.type) link.setAttribute('type', previous.type);
    };
  }, [href, preview]);
}
