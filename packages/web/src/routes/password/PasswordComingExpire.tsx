import { useState } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import type { LoginRequestInfo } from '@passgate/contract';
import { ActionButton } from '../../components/ActionButton.tsx';
import { Notice } from '../../components/Notice.tsx';
import { browser } from '../../lib/browser.ts';
import { flowHref } from '../login/login-options.ts';
import { ClientFlowPage } from '../flow/ClientFlowPage.tsx';
import { canResetPassword } from '../flow/flow-access.ts';
import { readPasswordExpiryState, type MfaState, type PasswordExpiryState, type UsernameState } from '../flow/flow-state.ts';

/** DD/MM/YYYY (SPEC.md section 9's date format), in the browser's time zone. */
export function formatDate(unixSeconds: number): string {
  const date = new Date(unixSeconds * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`;
}

/**
 * /password/coming-expire?challenge=…, reached from Login with the password-expiry state: the
 * warning, 'Reset password' (when the client may) and 'Continue login'. Without that state it
 * returns to Login.
 */
export default function PasswordComingExpire() {
  const { t } = useTranslation();
  const location = useLocation();
  const [params] = useSearchParams();
  const state = readPasswordExpiryState(location.state);
  if (!state) {
    return params.get('challenge') ? <Navigate to={flowHref('/login', params)} replace /> : <Navigate to="/error" replace state={{ status: 400 }} />;
  }
  return (
    <ClientFlowPage title={t('passwordExpiry.documentTitle')} heading={t('passwordExpiry.heading')}>
      {(info) => <ExpiryChoices info={info} state={state} />}
    </ClientFlowPage>
  );
}

function ExpiryChoices({ info, state }: { info: LoginRequestInfo; state: PasswordExpiryState }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [failed, setFailed] = useState(0);
  const [leaving, setLeaving] = useState(false);
  const warning = state.passwordWarning;

  /** SPEC.md section 4: the MFA step if required, else the redirect, else 'Sorry, something went wrong there'. */
  const continueLogin = () => {
    const { mfaRequired, tokenType, mfaToken, rememberBrowser, redirectTo, username } = state;
    if (mfaRequired && tokenType && mfaToken) {
      const mfa: MfaState = { tokenType, mfaToken, ...(rememberBrowser === false ? { rememberBrowser } : {}), username, challenge: info.challenge };
      void navigate(flowHref('/login/mfa', params), { state: mfa });
    } else if (redirectTo) {
      setLeaving(true);
      browser.assign(redirectTo);
    } else {
      setFailed((n) => n + 1);
    }
  };

  const resetPassword = () => {
    const next: UsernameState = { username: state.username };
    void navigate(flowHref('/password/recover', params), { state: next });
  };

  return (
    <Box sx={{ textAlign: 'center' }}>
      {failed > 0 && <Notice key={failed} message={t('messages.somethingWrong')} />}
      {warning && (
        <Typography sx={{ mb: 1 }}>
          {warning.daysLeft > 0
            ? t('passwordExpiry.daysLeft', { count: warning.daysLeft, date: formatDate(warning.expiresAt) })
            : t('passwordExpiry.today', { date: formatDate(warning.expiresAt) })}
        </Typography>
      )}
      <Typography color="textSecondary" sx={{ mb: 3 }}>
        {t('passwordExpiry.advice')}
      </Typography>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        {canResetPassword(info.client) && (
          <ActionButton variant="contained" size="large" fullWidth onClick={resetPassword} disabled={leaving}>
            {t('passwordExpiry.resetPassword')}
          </ActionButton>
        )}
        <ActionButton variant="outlined" size="large" fullWidth onClick={continueLogin} disabled={leaving}>
          {leaving ? t('common.redirecting') : t('passwordExpiry.continueLogin')}
        </ActionButton>
      </Box>
    </Box>
  );
}
