import { createContext, useContext } from 'react';

/**
 * True inside the admin console's live preview of a client's screens: the real components render
 * there, but nothing may reach outside the preview (no favicon of the console's tab changed, no
 * Google or Facebook SDK loaded into the console's page).
 */
export const PreviewMode = createContext(false);

export function usePreviewMode(): boolean {
  return useContext(PreviewMode);
}
