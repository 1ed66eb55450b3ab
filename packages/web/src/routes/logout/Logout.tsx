import { use, useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import { ActionButton } from '../../components/ActionButton.tsx';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { loginFlowApi } from '../../api/login-flow.ts';
import { ApiErrorAlert } from '../../components/ApiErrorAlert.tsx';
import { Loading } from '../../components/Loading.tsx';
import { PublicPage } from '../../components/PublicPage.tsx';
import { ChallengePage } from '../../components/ChallengePage.tsx';
import { isRequestGone } from '../../api/errors.ts';
import RequestGone from '../flow/RequestGone.tsx';
import { browser } from '../../lib/browser.ts';
import { applyClientLanguage } from '../../i18n/client-language.ts';
import { currentLanguage } from '../../i18n/i18n.ts';
import { carryLocaleToNextPage } from '../../i18n/language.ts';
import type { LogoutRequestInfo } from '@passgate/contract';
import { cachedRequest, forgetRequest } from '../../lib/request-cache.ts';

const requestKey = (challenge: string) => `logout-request:${challenge}`;

/** /logout?challenge=…: 'Do you want to log out of …?' with Back and Log out, or straight on when autoConfirm. */
export default function Logout() {
  const { t } = useTranslation();
  return (
    <ChallengePage title={t('logout.documentTitle')} requestKey={requestKey} flow="sign-out">
      {(challenge) => <LogoutScreen challenge={challenge} />}
    </ChallengePage>
  );
}

type Decision = { state: 'idle' } | { state: 'sending' } | { state: 'leaving' } | { state: 'failed'; error: unknown };

function LogoutScreen({ challenge }: { challenge: string }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const info = use(cachedRequest(requestKey(challenge), () => loadLogoutRequest(challenge, `?${params.toString()}`)));
  useEffect(() => () => forgetRequest(requestKey(challenge)), [challenge]);
  const [decision, setDecision] = useState<Decision>(info.autoConfirm ? { state: 'sending' } : { state: 'idle' });

  const decide = (confirmed: boolean) => {
    setDecision({ state: 'sending' });
    void sendDecision(challenge, confirmed, setDecision);
  };

  // autoConfirm: the provider already knows the user wants out; confirm once, without asking.
  const autoConfirmed = useRef(false);
  useEffect(() => {
    if (info.autoConfirm && !autoConfirmed.current) {
      autoConfirmed.current = true;
      void sendDecision(challenge, true, setDecision);
    }
  }, [info.autoConfirm, challenge]);

  const client = info.client;
  const title = client ? `${t('logout.documentTitle')} · ${client.clientName}` : t('logout.documentTitle');
  if (decision.state === 'leaving' || (info.autoConfirm && decision.state === 'sending')) {
    return (
      <PublicPage client={client} title={title}>
        <Loading label={t('logout.signingOut')} />
      </PublicPage>
    );
  }

  // Decided meanwhile (in another tab, or this page brought back by Back): there is nothing left to
  // decide, and the sign-in screen the error alert would go to is the wrong one.
  if (decision.state === 'failed' && isRequestGone(decision.error)) return <RequestGone flow="sign-out" />;

  const busy = decision.state === 'sending';
  return (
    <PublicPage client={client} title={title}>
      <Box sx={{ textAlign: 'center' }}>
        {client?.logoUri && <Box component="img" src={client.logoUri} alt={t('login.logoAlt', { client: client.clientName })} sx={{ maxHeight: 64, maxWidth: '70%', mb: 2 }} />}
        <Typography variant="h1" sx={{ mb: 2 }}>
          {t('logout.heading')}
        </Typography>
        <ApiErrorAlert error={decision.state === 'failed' ? decision.error : null} />
        <Typography sx={{ mb: 3 }}>{client ? t('logout.question', { client: client.clientName }) : t('logout.questionNoClient')}</Typography>
        <Box sx={{ display: 'flex', gap: 2, justifyContent: 'center' }}>
          <ActionButton variant="outlined" size="large" disabled={busy} onClick={() => decide(false)} sx={{ flex: 1 }}>
            {t('logout.back')}
          </ActionButton>
          <ActionButton variant="contained" size="large" disabled={busy} onClick={() => decide(true)} sx={{ flex: 1 }}>
            {t('logout.confirm')}
          </ActionButton>
        </Box>
      </Box>
    </PublicPage>
  );
}

/** POST the answer (confirmed only for Log out), then follow the redirect. */
async function sendDecision(challenge: string, confirmed: boolean, setDecision: (decision: Decision) => void): Promise<void> {
  try {
    const { redirectTo } = await loginFlowApi.decideLogout(challenge, confirmed);
    setDecision({ state: 'leaving' });
    // Back to a page of Passgate (the account area's registered post-logout address, which cannot
    // carry it): that page speaks the language of this one.
    if (new URL(redirectTo, window.location.href).origin === window.location.origin) carryLocaleToNextPage(currentLanguage());
    browser.assign(redirectTo);
  } catch (error) {
    setDecision({ state: 'failed', error });
  }
}

/** Reads the logout request and speaks the client's language before the screen shows. */
async function loadLogoutRequest(challenge: string, search: string): Promise<LogoutRequestInfo> {
  const info = await loginFlowApi.logoutRequest(challenge);
  await applyClientLanguage(search, info.client?.i18n.defaultLocale);
  return info;
}
