import { useCallback } from 'react';
import { useNavigate } from 'react-router';

/** Whether the app has a page of its own to go back to (react-router numbers its history entries). */
export function canGoBack(): boolean {
  const state = window.history.state as { idx?: number } | null;
  return typeof state?.idx === 'number' && state.idx > 0;
}

/** History back when the app has somewhere to go back to, else home. */
export function useGoBack(home = '/'): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    if (canGoBack()) void navigate(-1);
    else void navigate(home, { replace: true });
  }, [navigate, home]);
}
