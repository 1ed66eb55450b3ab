import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ActionButton } from './ActionButton.tsx';
import { ApiErrorAlert } from './ApiErrorAlert.tsx';
import { Loading } from './Loading.tsx';
import { Notice } from './Notice.tsx';
import { PublicPage } from './PublicPage.tsx';
import { RequestBoundary } from './RequestBoundary.tsx';
import { forgetRequest } from '../lib/request-cache.ts';

/**
 * The frame of a login-flow screen that reads a request by its `challenge` query parameter: a notice
 * without one, a spinner while it loads, the error (with Retry) when it fails, else `children`.
 */
export function ChallengePage({
  title,
  requestKey,
  children,
}: {
  title: string;
  /** The request-cache key of the screen's request, forgotten on Retry. */
  requestKey: (challenge: string) => string;
  children: (challenge: string) => ReactNode;
}) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const challenge = params.get('challenge');
  if (!challenge) {
    return (
      <PublicPage title={title}>
        <Notice message={t('messages.missingChallenge')} />
      </PublicPage>
    );
  }
  return (
    <RequestBoundary
      key={challenge}
      loading={
        <PublicPage title={title}>
          <Loading />
        </PublicPage>
      }
      onRetry={() => forgetRequest(requestKey(challenge))}
      failed={(error, retry) => (
        <PublicPage title={title}>
          <ApiErrorAlert error={error} />
          <Box sx={{ display: 'flex', justifyContent: 'center' }}>
            <ActionButton variant="outlined" onClick={retry}>
              {t('common.retry')}
            </ActionButton>
          </Box>
        </PublicPage>
      )}
    >
      {children(challenge)}
    </RequestBoundary>
  );
}
