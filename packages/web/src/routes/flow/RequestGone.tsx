import { Suspense, use, type ReactNode } from 'react';
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

/** Which request was gone: the texts differ, the way on is the same. */
export type GoneFlow = 'sign-in' | 'sign-out';

/**
 * The request behind a screen is gone: finished (Back after signing in or out), expired, or the
 * page was bookmarked. Not a dead end: the screen wears the client's theme (its id travels in the
 * address) and leads back to it, where a new sign-in starts and, while the provider session lasts,
 * completes at once. Without a known client, it leads to the account area.
 */
export default function RequestGone({ flow = 'sign-in' }: { flow?: GoneFlow }) {
  const { t } = useTranslation();
  const texts = flow === 'sign-out' ? 'logoutGone' : 'requestGone';
  return (
    <ClientOfAddress>
      {(client) => (
        <ClientExitScreen
          client={client}
          title={t(`${texts}.title`)}
          heading={t(`${texts}.heading`)}
          message={client?.homeUri ? t(`${texts}.message`, { client: client.clientName }) : t(`${texts}.messageNoClient`)}
          back={t('requestGone.back', { client: client?.clientName })}
          elsewhere={{ href: '/user/dashboard', label: t('requestGone.account') }}
        />
      )}
    </ClientOfAddress>
  );
}

/**
 * The client named by the address's `client_id`, read before `children` render (and its language
 * applied); null without one, or when it cannot be read.
 */
export function ClientOfAddress({ children }: { children: (client: PublicClient | null) => ReactNode }) {
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
      {clientId ? <NamedClient clientId={clientId} search={search} render={children} /> : children(null)}
    </Suspense>
  );
}

function NamedClient({ clientId, search, render }: { clientId: string; search: string; render: (client: PublicClient | null) => ReactNode }) {
  return render(use(publicClient(clientId, search)));
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

/**
 * A screen at the end of a flow, in the client's theme: its logo, what happened, and one button on:
 * back to the client's home when it has one, else `elsewhere` (a page of Passgate).
 */
export function ClientExitScreen({
  client,
  title,
  heading,
  message,
  back,
  elsewhere,
}: {
  client: PublicClient | null;
  title: string;
  heading: string;
  message: string;
  /** The label of the button back to the client's home. */
  back: string;
  elsewhere: { href: string; label: string };
}) {
  const { t } = useTranslation();
  const name = client?.clientName;
  return (
    <PublicPage client={client} clientLink={!client?.homeUri} title={name ? `${title} · ${name}` : title}>
      <Box sx={{ textAlign: 'center' }}>
        {client?.logoUri && (
          <Box component="img" src={client.logoUri} alt={t('login.logoAlt', { client: client.clientName })} sx={{ maxHeight: 56, maxWidth: '70%', mb: 1.5 }} />
        )}
        <Typography variant="h1" sx={{ mb: 1.5 }}>
          {heading}
        </Typography>
        <Typography color="textSecondary" sx={{ mb: 3 }}>
          {message}
        </Typography>
        {client?.homeUri ? (
          <ActionLink variant="contained" size="large" fullWidth href={withLocale(client.homeUri, currentLanguage())}>
            {back}
          </ActionLink>
        ) : (
          <ActionLink variant="contained" size="large" fullWidth href={withLocale(elsewhere.href, currentLanguage())}>
            {elsewhere.label}
          </ActionLink>
        )}
      </Box>
    </PublicPage>
  );
}
