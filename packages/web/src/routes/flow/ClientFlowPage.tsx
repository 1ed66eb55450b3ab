import { use, useEffect, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Navigate, useSearchParams } from 'react-router';
import type { LoginRequestInfo, PublicClient } from '@passgate/contract';
import { ChallengePage } from '../../components/ChallengePage.tsx';
import { PublicPage } from '../../components/PublicPage.tsx';
import { loadLoginRequest, loginRequestKey } from '../../lib/login-request.ts';
import type { ErrorState } from '../errors/ErrorScreen.tsx';
import { flowHref } from '../login/login-options.ts';
import { cachedRequest, forgetRequest } from '../../lib/request-cache.ts';

interface Props {
  /** The screen's name, for the browser tab (followed by the client's name). */
  title: string;
  heading: string;
  /** A line under the heading (may depend on the client). */
  intro?: ReactNode | ((client: PublicClient) => ReactNode);
  /** The page guard (SPEC.md section 4): a client that fails it goes to Error 403. */
  allowed?: (client: PublicClient) => boolean;
  children: (info: LoginRequestInfo) => ReactNode;
}

/**
 * The frame of a visitor screen of the login flow (register, activation, password recovery…): it
 * reads the sign-in request of `?challenge=` like the Login screen (cached, in the client's
 * language), wears the client's theme, and applies the page guard.
 */
export function ClientFlowPage({ title, ...props }: Props) {
  return (
    <ChallengePage title={title} requestKey={loginRequestKey}>
      {(challenge) => <FlowScreen challenge={challenge} title={title} {...props} />}
    </ChallengePage>
  );
}

function FlowScreen({ challenge, title, heading, intro, allowed, children }: Props & { challenge: string }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const info = use(cachedRequest(loginRequestKey(challenge), () => loadLoginRequest(challenge, `?${params.toString()}`)));
  useEffect(() => () => forgetRequest(loginRequestKey(challenge)), [challenge]);

  const client = info.client;
  const introText = typeof intro === 'function' ? intro(client) : intro;
  if (allowed && !allowed(client)) {
    const state: ErrorState = { status: 403, client, back: flowHref('/login', params) };
    return <Navigate to="/error" replace state={state} />;
  }

  return (
    <PublicPage client={client} title={`${title} · ${client.clientName}`}>
      <Box sx={{ textAlign: 'center', mb: 2 }}>
        {client.logoUri && (
          <Box component="img" src={client.logoUri} alt={t('login.logoAlt', { client: client.clientName })} sx={{ maxHeight: 56, maxWidth: '70%', mb: 1.5 }} />
        )}
        <Typography variant="h1" sx={{ overflowWrap: 'anywhere' }}>
          {heading}
        </Typography>
        {introText && (
          <Typography variant="body2" color="textSecondary" sx={{ mt: 0.75, overflowWrap: 'anywhere' }}>
            {introText}
          </Typography>
        )}
      </Box>
      {children(info)}
    </PublicPage>
  );
}
