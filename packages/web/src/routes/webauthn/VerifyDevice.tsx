import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { DEVICE_VERIFY_REDIRECT_SECONDS } from '@passgate/contract/rules';
import type { DeviceLoginRequester, LoginRequestInfo } from '@passgate/contract';
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
  // Both come from the QR link; without them there is nothing to approve. A cut or hand-made link
  // is the visitor's request that is not valid (400), not a fault of the server (500).
  if (!params.get('challenge') || !authnChallenge) return <Navigate to="/error" replace state={{ status: 400 }} />;
  return (
    <ClientFlowPage title={t('deviceLogin.verifyTitle')} heading={t('deviceLogin.verifyTitle')} allowed={canUseDeviceLogin}>
      {(info) => <Confirmation info={info} authnChallenge={authnChallenge} />}
    </ClientFlowPage>
  );
}

type Step =
  | { kind: 'loading' }
  | { kind: 'ready'; request: DeviceLoginRequest }
  | { kind: 'verifying'; request: DeviceLoginRequest }
  | { kind: 'denying'; request: DeviceLoginRequest }
  | { kind: 'done' }
  | { kind: 'denied' }
  | { kind: 'failed' };

/**
 * 'Chrome 156 on Linux · near Hanoi, Vietnam · IP 203.0.113.5 · at 08:15', leaving out what is not
 * known: someone sent a link by a stranger sees a browser, place and time that are not theirs.
 */
function useRequesterLine(requester: DeviceLoginRequester): string {
  const { t, i18n } = useTranslation();
  const device = requester.browser && requester.os ? t('deviceLogin.requester.browserOnOs', { browser: requester.browser, os: requester.os }) : requester.browser || requester.os;
  const at = new Date(requester.requestedAt);
  const time = Number.isNaN(at.getTime()) ? '' : new Intl.DateTimeFormat(i18n.language === 'en' ? 'en-GB' : 'vi-VN', { timeStyle: 'short' }).format(at);
  return [
    device,
    requester.place ? t('deviceLogin.requester.near', { place: requester.place }) : '',
    requester.ip ? t('deviceLogin.requester.ip', { ip: requester.ip }) : '',
    time ? t('deviceLogin.requester.at', { time }) : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

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

  const deny = async (request: DeviceLoginRequest) => {
    setStep({ kind: 'denying', request });
    try {
      await deviceLoginApi.deny({ challenge: authnChallenge, oauthChallenge: info.challenge });
      setStep({ kind: 'denied' });
    } catch {
      // Expired or already used: the link is spent either way.
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
        <Typography role="status" color="textSecondary" sx={{ textAlign: 'center' }}>
          {t('deviceLogin.redirectIn', { seconds: String(countdown.secondsLeft) })}
        </Typography>
      </>
    );
  }
  if (step.kind === 'denied') {
    return (
      <>
        <Notice severity="success" message={t('deviceLogin.denied')} />
        <ActionButton variant="outlined" size="large" fullWidth onClick={() => void navigate(DASHBOARD)}>
          {t('deviceLogin.toAccount')}
        </ActionButton>
      </>
    );
  }

  return <Request request={step.request} busy={step.kind} onContinue={() => void verify(step.request)} onDeny={() => void deny(step.request)} />;
}

function Request({ request, busy, onContinue, onDeny }: { request: DeviceLoginRequest; busy: 'ready' | 'verifying' | 'denying'; onContinue: () => void; onDeny: () => void }) {
  const { t } = useTranslation();
  const requester = useRequesterLine(request.requester);
  return (
    <Box
      component="section"
      role="dialog"
      aria-labelledby="verify-device-title"
      aria-describedby="verify-device-requester verify-device-question"
      sx={{ p: 2.5, border: 1, borderColor: 'divider', borderRadius: 2, textAlign: 'center' }}
    >
      <Typography id="verify-device-title" variant="h2" sx={{ overflowWrap: 'anywhere' }}>
        {t('deviceLogin.loggingOnTo')}{' '}
        <Box component="strong" sx={{ color: 'primary.main' }}>
          {request.clientName}
        </Box>
      </Typography>
      {request.username && (
        <Typography variant="body2" color="textSecondary" sx={{ mt: 1, overflowWrap: 'anywhere' }}>
          {t('deviceLogin.account', { username: request.username })}
        </Typography>
      )}
      <Typography id="verify-device-requester" variant="body2" sx={{ mt: 1, overflowWrap: 'anywhere' }}>
        {t('deviceLogin.requester.label')} {requester}
      </Typography>
      <Box sx={{ mt: 2, textAlign: 'start' }}>
        <Notice severity="warning" autoFocus={false} message={t('deviceLogin.warning')} />
      </Box>
      <Typography id="verify-device-question" sx={{ mt: 1 }}>
        {t('deviceLogin.question')}
      </Typography>
      <ActionButton variant="contained" size="large" fullWidth disabled={busy !== 'ready'} sx={{ mt: 3 }} onClick={onContinue}>
        {busy === 'verifying' ? t('deviceLogin.verifying') : t('common.continue')}
      </ActionButton>
      <ActionButton variant="outlined" size="large" fullWidth disabled={busy !== 'ready'} sx={{ mt: 1.5 }} onClick={onDeny}>
        {busy === 'denying' ? t('deviceLogin.denying') : t('deviceLogin.deny')}
      </ActionButton>
    </Box>
  );
}
