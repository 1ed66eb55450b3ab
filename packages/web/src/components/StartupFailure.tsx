import { ActionButton } from './ActionButton.tsx';
import { useTranslation } from 'react-i18next';
import { Notice } from './Notice.tsx';
import { PublicPage } from './PublicPage.tsx';

/** Shown when the app cannot start (no runtime configuration) or a screen fails to load. */
export function StartupFailure({ network }: { network: boolean }) {
  const { t } = useTranslation();
  return (
    <PublicPage title={t('app.name')}>
      <Notice message={network ? t('messages.cannotConnect') : t('messages.startupFailed')} />
      <ActionButton variant="contained" fullWidth onClick={() => window.location.reload()}>
        {t('common.retry')}
      </ActionButton>
    </PublicPage>
  );
}
