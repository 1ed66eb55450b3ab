import { use, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Loading } from '../../components/Loading.tsx';
import { PublicPage } from '../../components/PublicPage.tsx';
import { ChallengePage } from '../../components/ChallengePage.tsx';
import { browser } from '../../lib/browser.ts';
import { loadLoginRequest, loginRequestKey as requestKey } from '../../lib/login-request.ts';
import { cachedRequest, forgetRequest } from '../../lib/request-cache.ts';
import { LoginCard } from './LoginCard.tsx';
import { LoginHeading } from './LoginHeading.tsx';

/** /login?challenge=…: the themed sign-in screen of the client that sent the user. */
export default function Login() {
  const { t } = useTranslation();
  return (
    <ChallengePage title={t('login.documentTitle')} requestKey={requestKey}>
      {(challenge) => <LoginScreen challenge={challenge} />}
    </ChallengePage>
  );
}

function LoginScreen({ challenge }: { challenge: string }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const info = use(cachedRequest(requestKey(challenge), () => loadLoginRequest(challenge, `?${params.toString()}`)));
  // Read again when the user comes back to this screen later (the request may have moved on).
  useEffect(() => () => forgetRequest(requestKey(challenge)), [challenge]);

  const skipTo = info.skip && info.redirectTo ? info.redirectTo : null;
  useSkipRedirect(skipTo);

  if (skipTo) {
    return (
      <PublicPage title={t('login.documentTitle')}>
        <Loading label={t('common.redirecting')} />
      </PublicPage>
    );
  }

  const client = info.client;
  return (
    // The tab and the heading say what the screen is; the client's name (or its theme's title) stands beside it, never instead.
    <PublicPage client={client} title={`${t('login.documentTitle')} · ${client.theme.title || client.clientName}`}>
      <LoginHeading client={client} />
      <LoginCard info={info} />
    </PublicPage>
  );
}

/** When the provider says skip, the user is already signed in: go straight on. */
function useSkipRedirect(url: string | null): void {
  useEffect(() => {
    if (url) browser.assign(url);
  }, [url]);
}
