import { useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import type { LoginRequestInfo } from '@passgate/contract';
import { Notice } from '../../components/Notice.tsx';
import { TextLink } from '../../components/TextLink.tsx';
import { browser } from '../../lib/browser.ts';
import { flowHref, loginOptions } from './login-options.ts';
import { PasswordLoginForm } from './PasswordLoginForm.tsx';
import { SocialButtons } from './SocialButtons.tsx';
import type { LoginArrivalState } from '../flow/flow-state.ts';

const column = { display: 'flex', flexDirection: 'column', gap: 1.5 } as const;

/** Everything the Login screen offers this client: social buttons, the password form and the other ways in. */
export function LoginCard({ info }: { info: LoginRequestInfo }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const options = useMemo(() => loginOptions(info.client, { publicKeyCredential: browser.supportsPublicKeyCredential() }), [info.client]);
  // 'Your account is now active' or 'Update Password successfully', brought by the route state.
  const arrival = (useLocation().state as Partial<LoginArrivalState> | null)?.notice;
  const [submitted, setSubmitted] = useState(false);
  const arrivalNotice = !submitted && (arrival === 'accountActivated' || arrival === 'passwordUpdated') ? t(`messages.${arrival}`) : null;

  const social = options.google || options.facebook;
  const forgotPasswordHref = options.forgotPassword ? flowHref('/password/recover', params) : null;
  const anyMethod = options.passwordForm || social || options.passwordless || options.webauthn;
  const otherWays = options.passwordless || options.webauthn || (forgotPasswordHref && !options.passwordForm);

  return (
    <>
      <Notice severity="success" message={arrivalNotice} autoFocus={false} />
      {social && <SocialButtons info={info} google={options.google} facebook={options.facebook} onStarted={() => setSubmitted(true)} />}
      {social && options.passwordForm && <OrSeparator label={t('common.or')} />}
      {options.passwordForm && <PasswordLoginForm info={info} options={options} forgotPasswordHref={forgotPasswordHref} onSubmitted={() => setSubmitted(true)} />}
      {!anyMethod && <Notice severity="info" message={t('login.noMethods')} />}

      {otherWays && (
        <Box sx={{ ...column, gap: 1, mt: 2.5, alignItems: 'center' }}>
          {forgotPasswordHref && !options.passwordForm && <TextLink to={forgotPasswordHref}>{t('login.forgotPassword')}</TextLink>}
          {options.passwordless && <TextLink to={flowHref('/login/passwordless', params)}>{t('login.passwordless')}</TextLink>}
          {options.webauthn && <TextLink to={flowHref('/login/webauthn', params)}>{t('login.webauthn')}</TextLink>}
        </Box>
      )}

      {options.register && (
        <Box sx={{ mt: 3, textAlign: 'center' }}>
          <Typography variant="body2" component="span" color="textSecondary">
            {t('login.noAccount')}{' '}
          </Typography>
          <TextLink to={flowHref('/register', params)} sx={{ fontWeight: 700 }}>
            {t('login.register')}
          </TextLink>
        </Box>
      )}
    </>
  );
}

/** "—— or ——" between the social buttons and the password form. */
export function OrSeparator({ label }: { label: string }) {
  const line = { flex: 1, height: '1px', bgcolor: 'divider' } as const;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, my: 2.5, color: 'text.secondary', typography: 'body2' }}>
      <Box sx={line} />
      {label}
      <Box sx={line} />
    </Box>
  );
}
