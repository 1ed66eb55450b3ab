import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { ThemeProvider } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import type { PublicClient } from '@passgate/contract';
import { useDocumentTitle, useFavicon } from '../hooks/use-document-title.ts';
import { currentLanguage } from '../i18n/i18n.ts';
import { withLocale } from '../lib/locale-link.ts';
import { localizedText } from '../lib/localized-text.ts';
import { CONTENT_MAX_WIDTH, backgroundImageOf, clientMuiTheme, textOn } from '../theme/themes.ts';
import { LanguageSwitcher } from './LanguageSwitcher.tsx';
import { PrivacyLink } from './PrivacyLink.tsx';
import { ExternalLink } from './TextLink.tsx';

interface Props {
  /** The client whose theme the screen wears; the default look without one. */
  client?: PublicClient | null;
  /** The browser tab's title. */
  title?: string;
  /** False where the screen's own main action already leads back to the client. */
  clientLink?: boolean;
  children: ReactNode;
}

/**
 * The frame of every public screen: the client's colours and background, its icon and name at the
 * top with the language switcher, a card at most 420 px wide, the client's hyperlink and the fixed
 * 'Privacy Policy' link.
 */
export function PublicPage({ client, title, clientLink = true, children }: Props) {
  const theme = client?.theme;
  const { i18n } = useTranslation();
  const muiTheme = clientMuiTheme(theme);
  useDocumentTitle(title);
  useFavicon(theme?.iconUri);
  const backgroundImage = backgroundImageOf(theme);

  return (
    <ThemeProvider theme={muiTheme}>
      <Box
        sx={{
          minHeight: '100dvh',
          display: 'flex',
          flexDirection: 'column',
          bgcolor: 'background.default',
          backgroundImage,
          backgroundSize: 'cover',
          backgroundPosition: 'center',
          backgroundAttachment: { md: 'fixed' },
        }}
      >
        <Box component="header" sx={{ display: 'flex', alignItems: 'center', gap: 1, px: { xs: 2, sm: 3 }, py: 1.5 }}>
          {theme?.iconUri && <Box component="img" src={theme.iconUri} alt="" sx={{ width: 28, height: 28, borderRadius: 1 }} />}
          {client && (
            <Typography component="span" sx={{ fontWeight: 600, color: textOn(muiTheme.palette.background.default), overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
              {client.clientName}
            </Typography>
          )}
          <Box sx={{ flex: 1 }} />
          <LanguageSwitcher />
        </Box>
        <Box component="main" sx={{ flex: 1, display: 'flex', flexDirection: 'column', alignItems: 'center', px: 2, pt: { xs: 1, sm: 4 }, pb: 8 }}>
          <Box sx={{ width: '100%', maxWidth: CONTENT_MAX_WIDTH, p: { xs: 2.5, sm: 4 }, borderRadius: 3, bgcolor: 'background.paper', boxShadow: 3 }}>
            {children}
          </Box>
          {clientLink && theme?.hyperlink && (
            <ExternalLink href={withLocale(theme.hyperlink, currentLanguage())} target="_blank" rel="noopener noreferrer" sx={{ mt: 2, px: 1, py: 0.5, borderRadius: 1, bgcolor: 'rgba(255,255,255,0.85)' }}>
              {localizedText(theme.hyperlinkedText, theme.hyperlinkedTextI18n, i18n.language) || theme.hyperlink}
            </ExternalLink>
          )}
        </Box>
        <PrivacyLink />
      </Box>
    </ThemeProvider>
  );
}
