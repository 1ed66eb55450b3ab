import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { classifyError, isRequestGone } from '../api/errors.ts';
import { errorText } from '../i18n/error-message.ts';
import { Notice } from './Notice.tsx';

/** Goes to the Error screen (state 500) when `error` is a 5xx (SPEC.md section 8). */
export function useServerErrorRedirect(error: unknown): void {
  const navigate = useNavigate();
  const serverError = error != null && classifyError(error).kind === 'server-error';
  useEffect(() => {
    if (serverError) void navigate('/error', { state: { status: 500 } });
  }, [serverError, navigate]);
}

/** Shows a failed call the way SPEC.md section 8 says, in the current language. */
export function ApiErrorAlert({ error }: { error: unknown }) {
  const { t } = useTranslation();
  useServerErrorRedirect(error);
  useRequestGoneRedirect(error);
  return <Notice message={error == null ? null : errorText(t, error)} />;
}

/**
 * A call answered that the sign-in request has finished or expired (the form was left open too
 * long, or brought back by Back after the sign-in): go to the screen that leads back to the client,
 * instead of a message whose retry can only fail again.
 */
export function useRequestGoneRedirect(error: unknown): void {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const gone = isRequestGone(error);
  useEffect(() => {
    if (!gone) return;
    const keep = new URLSearchParams();
    for (const key of ['client_id', 'locale']) {
      const value = params.get(key);
      if (value) keep.set(key, value);
    }
    void navigate(`/request-expired?${keep.toString()}`, { replace: true });
  }, [gone, navigate, params]);
}
