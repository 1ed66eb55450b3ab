import { useEffect, useMemo, useState } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import PhoneIcon from '@mui/icons-material/PhoneIphone';
import DesktopIcon from '@mui/icons-material/DesktopWindowsOutlined';
import { I18nextProvider, useTranslation } from 'react-i18next';
import type { Locale, LoginRequestInfo, PublicClient } from '@passgate/contract';
import { PublicPage } from '../../../components/PublicPage.tsx';
import { i18n, preloadLanguage } from '../../../i18n/i18n.ts';
import { PreviewMode } from '../../../lib/preview-mode.ts';
import { LoginCard } from '../../login/LoginCard.tsx';
import { LoginHeading } from '../../login/LoginHeading.tsx';
import { PreviewFrame } from './PreviewFrame.tsx';

export type PreviewDevice = 'phone' | 'desktop';

const FRAME: Record<PreviewDevice, { width: number; height: number }> = {
  phone: { width: 375, height: 740 },
  desktop: { width: 1280, height: 800 },
};

/**
 * The preview's switches sit on the page's tinted background: on their own white, with the secondary
 * text colour for the choice not taken (MUI's default, action.active, falls under 4.5:1 there).
 */
const toggleSx = { bgcolor: 'background.paper', '& .MuiToggleButton-root:not(.Mui-selected)': { color: 'text.secondary' } } as const;

/**
 * The client's Login screen as its users will see it, drawn by the components of the real /login
 * (PublicPage, LoginHeading, LoginCard) from the form's current values: it changes as the operator
 * types. It never reaches the server: there is no sign-in request behind it.
 */
export function ClientLoginPreview({ client }: { client: PublicClient }) {
  const { t, i18n: consoleI18n } = useTranslation();
  const [locale, setLocale] = useState<Locale>(() => (consoleI18n.language === 'en' ? 'en' : 'vi'));
  const [device, setDevice] = useState<PreviewDevice>('phone');
  const previewI18n = usePreviewI18n(locale);
  const info = useMemo<LoginRequestInfo>(() => ({ challenge: 'preview', skip: false, client, oidcContext: {} }), [client]);
  const frame = FRAME[device];

  return (
    <Box component="section" aria-labelledby="client-preview-heading" sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
        <Typography id="client-preview-heading" variant="h2" component="h2" sx={{ flex: 1, minWidth: 140 }}>
          {t('admin.preview.heading')}
        </Typography>
        <ToggleButtonGroup size="small" exclusive value={locale} onChange={(_, next: Locale | null) => next && setLocale(next)} aria-label={t('admin.preview.language')} sx={toggleSx}>
          <ToggleButton value="vi" lang="vi" aria-label={`VI – ${t('languages.vi')}`}>
            VI
          </ToggleButton>
          <ToggleButton value="en" lang="en" aria-label={`EN – ${t('languages.en')}`}>
            EN
          </ToggleButton>
        </ToggleButtonGroup>
        <ToggleButtonGroup size="small" exclusive value={device} onChange={(_, next: PreviewDevice | null) => next && setDevice(next)} aria-label={t('admin.preview.width')} sx={toggleSx}>
          <ToggleButton value="phone" aria-label={t('admin.preview.phone')}>
            <PhoneIcon fontSize="small" />
          </ToggleButton>
          <ToggleButton value="desktop" aria-label={t('admin.preview.desktop')}>
            <DesktopIcon fontSize="small" />
          </ToggleButton>
        </ToggleButtonGroup>
      </Box>
      <Typography variant="body2" color="textSecondary">
        {t('admin.preview.note')}
      </Typography>
      <PreviewFrame key={device} width={frame.width} height={frame.height} title={t('admin.preview.frameTitle', { client: client.clientName })}>
        <PreviewMode.Provider value>
          <I18nextProvider i18n={previewI18n}>
            <CssBaseline />
            <PublicPage client={client}>
              <LoginHeading client={client} />
              <LoginCard info={info} />
            </PublicPage>
          </I18nextProvider>
        </PreviewMode.Provider>
      </PreviewFrame>
    </Box>
  );
}

/** An i18next instance of its own speaking `locale` (the strings are shared), so the preview's language is not the console's. */
function usePreviewI18n(locale: Locale) {
  const instance = useMemo(() => i18n.cloneInstance({ lng: locale }), [locale]);
  const [, setReady] = useState(0);
  useEffect(() => {
    let current = true;
    void preloadLanguage(locale).then(() => {
      if (!current) return;
      void instance.changeLanguage(locale).then(() => current && setReady((n) => n + 1));
    });
    return () => {
      current = false;
    };
  }, [instance, locale]);
  return instance;
}
