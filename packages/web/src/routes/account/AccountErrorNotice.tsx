import { useTranslation } from 'react-i18next';
import { isUnauthorized } from '../../api/errors.ts';
import { useServerErrorRedirect } from '../../components/ApiErrorAlert.tsx';
import { Notice } from '../../components/Notice.tsx';
import { errorText } from '../../i18n/error-message.ts';

/**
 * A failed account call, the way SPEC.md section 8 says: a 4xx shows its message (in the current
 * language), a 5xx goes to the Error screen. A 401 shows nothing: useAccountApi has already sent
 * the user to the session-expired alert.
 */
export function AccountErrorNotice({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const shown = error != null && !isUnauthorized(error) ? error : null;
  useServerErrorRedirect(shown);
  return <Notice message={shown == null ? null : errorText(t, shown)} />;
}
