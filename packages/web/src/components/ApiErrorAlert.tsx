import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { classifyError } from '../api/errors.ts';
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
  return <Notice message={error == null ? null : errorText(t, error)} />;
}
