import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { DEVICE_VERIFY_REDIRECT_SECONDS } from '@passgate/contract/rules';
import type { LoginRequestInfo } from '@passgate/contract';
import { deviceLoginApi, type DeviceLoginRequest } from '../../api/webauthn.ts';
import { ActionButton } from '../../components/ActionButton.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Notice } from '../../components/Notice.tsx';
import { useCountdown } from '../../hooks/use-countdown.ts';
import { ClientFlowPage } from '../flow/ClientFlowPage.tsx';
import { canUseDeviceLogin } from './device-access.ts';
import { webauthnBrowser } from './webauthn-browser.ts';

const DASHBOARD = '/user/dashboard';

/**
 * /login/webauthn/verify-device?challenge=…&authnChallenge=…, opened on a second device from the
 * QR code: this device's registered credential approves the first device's sign-in.
 */
export default function VerifyDevice() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const authnChallenge = params.get('authnChallenge');
  // Both come from the QR link; without them there is nothing to approve.
  if (!params.get('challenge') || !authnChallenge) return <Navigate to="/error" replace state={{ status: 500 }} />;
  return (
    <ClientFlowPage title={t('deviceLogin.verifyTitle')} heading={t('deviceLogin.verifyTitle')} allowed={canUseDeviceLogin}>
      {(info) => <Confirmation info={info} authnChallenge={authnChallenge} />}
    </ClientFlowPage>
  );
}

type Step = { kind: 'loading' } | { kind: 'ready'; request: DeviceLoginRequest } | { kind: 'verifying'; request: DeviceLoginRequest } | { kind: 'done' } | { kind: 'failed' };

function Confirmation({ info, authnChallenge }: { info: LoginRequestInfo; authnChallenge: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>({ kind: 'loading' });
  const countdown = useCountdown({ onExpire: () => void navigate(DASHBOARD) });

  // The request is read on arrival, so Continue calls the authenticator at once, inside the
  // click (some browsers refuse WebAuthn once the click's user activation has passed).
  useEffect(() => {
    let live = true;
    deviceLoginApi.request(authnChallenge, info.challenge).then(
      (request) => live && setStep({ kind: 'ready', request }),
      () => live && setStep({ kind: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [authnChallenge, info.challenge]);

  const verify = async (request: DeviceLoginRequest) => {
    setStep({ kind: 'verifying', request });
    try {
      const credential = await webauthnBrowser.authenticate(request.publickeyCredentialRequestOptions);
      await deviceLoginApi.approve({ challenge: authnChallenge, oauthChallenge: info.challenge, publickeyCredential: credential, clientId: info.client.clientId });
      setStep({ kind: 'done' });
      countdown.start(DEVICE_VERIFY_REDIRECT_SECONDS);
    } catch {
      // Cancelled, no registered credential on this device, refused or expired: this link is spent.
      setStep({ kind: 'failed' });
    }
  };

  if (step.kind === 'loading') return <Loading />;
  if (step.kind === 'failed') {
    return (
      <>
        <Notice message={t('messages.verifyDeviceFailed')} />
        <Typography sx={{ textAlign: 'center' }}>{t('messages.closeTabAndRetry')}</Typography>
      </>
    );
  }
  if (step.kind === 'done') {
    return (
      <>
        <Notice severity="success" message={t('deviceLogin.verified')} />
        <Typography role="status" color="text.secondary" sx={{ textAlign: 'center' }}>
          {t('deviceLogin.redirectIn', { seconds: String(countdown.secondsLeft) })}
        </Typography>
      </>
    );
  }

  const { request } = step;
  return (
    <Box
      component="section"
      role="dialog"
      aria-labelledby="verify-device-title"
      aria-describedby="verify-device-question"
      sx={{ p: 2.5, border: 1, borderColor: 'divider', borderRadius: 2, textAlign: 'center' }}
    >
      <Typography id="verify-device-title" variant="h2" sx={{ overflowWrap: 'anywhere' }}>
        {t('deviceLogin.loggingOnTo')}{' '}
        <Box component="strong" sx={{ color: 'primary.main' }}>
          {request.clientName}
        </Box>
      </Typography>
      {request.username && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1, overflowWrap: 'anywhere' }}>
          {t('deviceLogin.account', { username: request.username })}
        </Typography>
      )}
      <Typography id="verify-device-question" sx={{ mt: 2 }}>
        {t('deviceLogin.question')}
      </Typography>
      <ActionButton variant="contained" size="large" fullWidth disabled={step.kind === 'verifying'} sx={{ mt: 3 }} onClick={() => void verify(request)}>
        {step.kind === 'verifying' ? t('deviceLogin.verifying') : t('common.continue')}
      </ActionButton>
    </Box>
  );
}
