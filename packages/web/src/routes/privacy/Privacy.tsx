import Box from '@mui/material/Box';
import { ActionButton } from '../../components/ActionButton.tsx';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { LanguageSwitcher } from '../../components/LanguageSwitcher.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { canGoBack, useGoBack } from '../../hooks/use-go-back.ts';
import { DIALOG_MAX_WIDTH } from '../../theme/themes.ts';
import { PolicyDocument } from './PolicyDocument.tsx';

/** /privacy: the public privacy policy, in Vietnamese. */
export default function Privacy() {
  const { t, i18n } = useTranslation();
  const goBack = useGoBack();
  useDocumentTitle(t('privacy.documentTitle'));
  // Opened in a tab of its own (from a sign-in screen), the page may close itself; reached any
  // other way, the browser refuses and the account area is the way on.
  const closeOrLeave = () => {
    window.close();
    window.setTimeout(goBack, 200);
  };

  return (
    <Box sx={{ minHeight: '100dvh', bgcolor: 'background.default', py: { xs: 2, sm: 4 } }}>
      <Container sx={{ maxWidth: DIALOG_MAX_WIDTH }} disableGutters>
        <Box component="header" sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, mb: 2 }}>
          {canGoBack() ? (
            <ActionButton variant="text" onClick={goBack}>
              {t('common.back')}
            </ActionButton>
          ) : (
            <ActionButton variant="text" onClick={closeOrLeave}>
              {t('common.close')}
            </ActionButton>
          )}
          <Box sx={{ flex: 1 }} />
          <LanguageSwitcher />
        </Box>
        <Paper component="main" lang="vi" elevation={1} sx={{ mx: { xs: 1, sm: 2 }, p: { xs: 2.5, sm: 5 }, borderRadius: 3 }}>
          <Typography variant="h1" sx={{ mb: 1 }}>
            Chính sách quyền riêng tư
          </Typography>
          {i18n.language !== 'vi' && (
            <Typography lang={i18n.language} color="textSecondary" sx={{ mb: 1 }}>
              {t('privacy.languageNote')}
            </Typography>
          )}
          <PolicyDocument toc />
        </Paper>
      </Container>
    </Box>
  );
}
