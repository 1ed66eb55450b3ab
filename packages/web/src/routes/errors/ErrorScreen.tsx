import Box from '@mui/material/Box';
import { ActionButton, ActionLink } from '../../components/ActionButton.tsx';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import type { PublicClient } from '@passgate/contract';
import { PublicPage } from '../../components/PublicPage.tsx';
import { useGoBack } from '../../hooks/use-go-back.ts';

export const ERROR_STATUSES = [400, 403, 404, 500] as const;
export type ErrorStatus = (typeof ERROR_STATUSES)[number];

export function errorStatusOf(state: unknown): ErrorStatus {
  const status = (state as { status?: unknown } | null)?.status;
  return ERROR_STATUSES.find((s) => s === status) ?? 404;
}

/**
 * What a screen of a client's sign-in hands on with the status: the client, whose theme the error
 * wears, and the address of that sign-in's Login screen, where Back leads. Opened on its own (a
 * typed or shared address), the screen has no page of the app behind it, and history's Back or
 * the home page would leave the client's sign-in for the account area's.
 */
export interface ErrorState {
  status: ErrorStatus;
  client?: PublicClient;
  back?: string;
}

function stateOf(state: unknown): Omit<ErrorState, 'status'> {
  const { client, back } = (state ?? {}) as { client?: unknown; back?: unknown };
  return {
    ...(client && typeof client === 'object' ? { client: client as PublicClient } : {}),
    // Only an address of this app: the route state is the page's own, but never a way out of it.
    ...(typeof back === 'string' && back.startsWith('/') && !back.startsWith('//') ? { back } : {}),
  };
}

/** /error, with the route state `{status}`: 500, 404 (the default), 403 or 400. */
export default function ErrorScreen() {
  const { t } = useTranslation();
  const location = useLocation();
  const goBack = useGoBack();
  const status = errorStatusOf(location.state);
  const { client, back } = stateOf(location.state);
  const heading = t(`errorPage.headings.${status}`);

  return (
    <PublicPage client={client ?? null} title={client ? `${heading} · ${client.clientName}` : heading}>
      <Box sx={{ textAlign: 'center' }}>
        <Typography aria-hidden sx={{ fontSize: '3.5rem', fontWeight: 700, color: 'primary.main', lineHeight: 1.1 }}>
          {status}
        </Typography>
        <Typography variant="h1" sx={{ mt: 1, mb: 2 }}>
          {heading}
        </Typography>
        <Typography color="textSecondary" sx={{ mb: 3 }}>
          {t(`errorPage.descriptions.${status}`)}
        </Typography>
        {back ? (
          <ActionLink variant="contained" size="large" href={back}>
            {t('errorPage.back')}
          </ActionLink>
        ) : (
          <ActionButton variant="contained" size="large" onClick={goBack}>
            {t('errorPage.back')}
          </ActionButton>
        )}
      </Box>
    </PublicPage>
  );
}
