import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { ErrorCode } from '@passgate/contract/rules';
import { ApiError, isUnauthorized } from '../../api/errors.ts';
import { useServerErrorRedirect } from '../../components/ApiErrorAlert.tsx';
import { Notice } from '../../components/Notice.tsx';
import { errorText } from '../../i18n/error-message.ts';
import { startSignIn } from './auth.ts';

/**
 * A failed account call, the way SPEC.md section 8 says: a 4xx shows its message (in the current
 * language), a 5xx goes to the Error screen. A 401 shows nothing: useAccountApi has already sent
 * the user to the session-expired alert. A 403/1307 (an administrator's 2-step or devices change
 * from a sign-in that did not use their app or device) offers the fresh sign-in it asks for, and
 * comes back to this page.
 */
export function AccountErrorNotice({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const shown = error != null && !isUnauthorized(error) ? error : null;
  useServerErrorRedirect(shown);
  const location = useLocation();
  const signInAgain = shown instanceof ApiError && shown.code === ErrorCode.SignInWithStrongTwoStep;
  const action = signInAgain ? (
    <Button variant="outlined" color="inherit" size="small" onClick={() => void startSignIn(`${location.pathname}${location.search}`, { reauthenticate: true })}>
      {t('account.signInAgain')}
    </Button>
  ) : undefined;
  return <Notice message={shown == null ? null : errorText(t, shown)} action={action} />;
}
