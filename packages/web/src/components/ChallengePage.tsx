import { lazy, useEffect, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ActionButton } from './ActionButton.tsx';
import { ApiErrorAlert } from './ApiErrorAlert.tsx';
import { Loading } from './Loading.tsx';
import { PublicPage } from './PublicPage.tsx';
import { RequestBoundary } from './RequestBoundary.tsx';
import { forgetRequest } from '../lib/request-cache.ts';
import { isRequestGone } from '../api/errors.ts';
import type { GoneFlow } from '../routes/flow/RequestGone.tsx';

const RequestGone = lazy(() => import('../routes/flow/RequestGone.tsx'));

/**
 * The frame of a login-flow screen that reads a request by its `challenge` query parameter: a spinner
 * while it loads, the way back to the client when there is no request or it has finished or expired,
 * the error (with Retry) when it fails otherwise, else `children`.
 */
export function ChallengePage({
  title,
  requestKey,
  flow = 'sign-in',
  children,
}: {
  title: string;
  /** The request-cache key of the screen's request, forgotten on Retry. */
  requestKey: (challenge: string) => string;
  /** Whose request the screen reads, for the words of the screen shown when it is gone. */
  flow?: GoneFlow;
  children: (challenge: string) => ReactNode;
}) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const challenge = params.get('challenge');
  useReloadWhenRestoredFromHistory();
  // A bookmarked or hand-typed address: no request to continue, but still a way forward.
  if (!challenge) return <RequestGone flow={flow} />;
  return (
    <RequestBoundary
      key={challenge}
      loading={
        <PublicPage title={title}>
          <Loading />
        </PublicPage>
      }
      onRetry={() => forgetRequest(requestKey(challenge))}
      failed={(error, retry) =>
        // Retrying a finished or expired request only fails again: lead back to the client instead.
        isRequestGone(error) ? (
          <RequestGone flow={flow} />
        ) : (
          <PublicPage title={title}>
            <ApiErrorAlert error={error} />
            <Box sx={{ display: 'flex', justifyContent: 'center' }}>
              <ActionButton variant="outlined" onClick={retry}>
                {t('common.retry')}
              </ActionButton>
            </Box>
          </PublicPage>
        )
      }
    >
      {children(challenge)}
    </RequestBoundary>
  );
}

/**
 * Back after a finished sign-in may bring the page back from the browser's back-forward cache, as
 * it was: a form for a request that no longer exists. Loaded again instead, it learns the request
 * is gone and leads back to the client.
 */
function useReloadWhenRestoredFromHistory(): void {
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) window.location.reload();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);
}
