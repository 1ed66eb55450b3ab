import Box from '@mui/material/Box';
import { ActionButton } from '../../components/ActionButton.tsx';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { PublicPage } from '../../components/PublicPage.tsx';
import { useGoBack } from '../../hooks/use-go-back.ts';

export const ERROR_STATUSES = [400, 403, 404, 500] as const;
export type ErrorStatus = (typeof ERROR_STATUSES)[number];

export function errorStatusOf(state: unknown): ErrorStatus {
  const status = (state as { status?: unknown } | null)?.status;
  return ERROR_STATUSES.find((s) => s === status) ?? 404;
}

/** /error, with the route state `{status}`: 500, 404 (the default), 403 or 400. */
export default function ErrorScreen() {
  const { t } = useTranslation();
  const location = useLocation();
  const goBack = useGoBack();
  const status = errorStatusOf(location.state);
  const heading = t(`errorPage.headings.${status}`);

  return (
    <PublicPage title={heading}>
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
        <ActionButton variant="contained" size="large" onClick={goBack}>
          {t('errorPage.back')}
        </ActionButton>
      </Box>
    </PublicPage>
  );
}
