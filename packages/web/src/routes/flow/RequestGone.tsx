import { Suspense, use } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import type { PublicClient } from '@passgate/contract';
import { loginFlowApi } from '../../api/login-flow.ts';
import { ActionLink } from '../../components/ActionButton.tsx';
import { Loading } from '../../components/Loading.tsx';
import { PublicPage } from '../../components/PublicPage.tsx';
import { applyClientLanguage } from '../../i18n/client-language.ts';
import { currentLanguage } from '../../i18n/i18n.ts';
import { withLocale } from '../../lib/locale-link.ts';
import { cachedRequest } from '../../lib/request-cache.ts';

/**
 * The sign-in request behind a screen is gone: finished (Back after signing in), expired, or the
 * page was bookmarked. Not a dead end: the screen wears the client's theme (its id travels in the
 * address) and leads back to it, where a new sign-in starts and, while the provider session lasts,
 * completes at once. Without a known client, it leads to the account area.
 */
export default function RequestGone() {
  const { search } = useLocation();
  const clientId = new URLSearchParams(search).get('client_id');
  return (
    <Suspense
      fallback={
        <PublicPage>
          <Loading />
        </PublicPage>
      }
    >
      {clientId ? <ClientGoneScreen clientId={clientId} search={search} /> : <GoneScreen client={null} />}
    </Suspense>
  );
}

function ClientGoneScreen({ clientId, search }: { clientId: string; search: string }) {
  return <GoneScreen client={use(publicClient(clientId, search))} />;
}

/** The client's public face, or null when it cannot be read (unknown client, no connection). */
function publicClient(clientId: string, search: string): Promise<PublicClient | null> {
  return cachedRequest(`public-client:${clientId}`, async () => {
    try {
      const client = await loginFlowApi.publicClient(clientId);
      await applyClientLanguage(search, client.i18n.defaultLocale);
      return client;
    } catch {
      return null;
    }
  });
}

function GoneScreen({ client }: { client: PublicClient | null }) {
  const { t } = useTranslation();
  const name = client?.clientName;
  return (
    <PublicPage client={client} clientLink={!client?.homeUri} title={name ? `${t('requestGone.title')} · ${name}` : t('requestGone.title')}>
      <Box sx={{ textAlign: 'center' }}>
        {client?.logoUri && (
          <Box component="img" src={client.logoUri} alt={t('login.logoAlt', { client: client.clientName })} sx={{ maxHeight: 56, maxWidth: '70%', mb: 1.5 }} />
        )}
        <Typography variant="h1" sx={{ mb: 1.5 }}>
          {t('requestGone.heading')}
        </Typography>
        <Typography color="textSecondary" sx={{ mb: 3 }}>
          {client?.homeUri ? t('requestGone.message', { client: client.clientName }) : t('requestGone.messageNoClient')}
        </Typography>
        {client?.homeUri ? (
          <ActionLink variant="contained" size="large" fullWidth href={withLocale(client.homeUri, currentLanguage())}>
            {t('requestGone.back', { client: client.clientName })}
          </ActionLink>
        ) : (
          <ActionLink variant="contained" size="large" fullWidth href={withLocale('/user/dashboard', currentLanguage())}>
            {t('requestGone.account')}
          </ActionLink>
        )}
      </Box>
    </PublicPage>
  );
}
