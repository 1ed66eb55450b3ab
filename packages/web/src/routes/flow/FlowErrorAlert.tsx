import { useTranslation } from 'react-i18next';
import { useRequestGoneRedirect, useServerErrorRedirect } from '../../components/ApiErrorAlert.tsx';
import { Notice } from '../../components/Notice.tsx';
import { RecaptchaError } from '../../lib/recaptcha.ts';
import { flowErrorText } from './flow-validation.ts';

/**
 * A failed visitor call, shown the way SPEC.md section 8 says (a 5xx goes to the Error screen),
 * plus the reCAPTCHA failures; `fallback` words a refusal the catalogue has no message for.
 */
export function FlowErrorAlert({ error, fallback }: { error: unknown; fallback?: string }) {
  const { t } = useTranslation();
  useServerErrorRedirect(error instanceof RecaptchaError ? null : error);
  useRequestGoneRedirect(error);
  return <Notice message={error == null ? null : flowErrorText(t, error, fallback)} />;
}
