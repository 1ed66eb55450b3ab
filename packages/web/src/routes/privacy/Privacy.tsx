import Box from '@mui/material/Box';
import { ActionButton } from '../../components/ActionButton.tsx';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { LanguageSwitcher } from '../../components/LanguageSwitcher.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { canGoBack, useGoBack } from '../../hooks/use-go-back.ts';
import { DIALOG_MAX_WIDTH } from '../../theme/themes.ts';
import { POLICY_INTRO, POLICY_SECTIONS, POLICY_UPDATED } from './privacy-policy.vi.ts';

/** /privacy: the public privacy policy, in Vietnamese. */
export default function Privacy() {
  const { t, i18n } = useTranslation();
  const goBack = useGoBack();
  useDocumentTitle(t('privacy.documentTitle'));

  return (
    <Box sx={{ minHeight: '100dvh', bgcolor: 'background.default', py: { xs: 2, sm: 4 } }}>
      <Container sx={{ maxWidth: DIALOG_MAX_WIDTH }} disableGutters>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, mb: 2 }}>
          {canGoBack() && (
            <ActionButton variant="text" onClick={goBack}>
              {t('common.back')}
            </ActionButton>
          )}
          <Box sx={{ flex: 1 }} />
          <LanguageSwitcher />
        </Box>
        <Paper component="article" lang="vi" elevation={1} sx={{ mx: { xs: 1, sm: 2 }, p: { xs: 2.5, sm: 5 }, borderRadius: 3 }}>
          <Typography variant="h1" sx={{ mb: 1 }}>
            Chính sách quyền riêng tư
          </Typography>
          {i18n.language !== 'vi' && (
            <Typography lang={i18n.language} color="text.secondary" sx={{ mb: 1 }}>
              {t('privacy.languageNote')}
            </Typography>
          )}
          <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
            Cập nhật lần cuối: {POLICY_UPDATED}
          </Typography>
          {POLICY_INTRO.map((text) => (
            <Typography key={text} sx={{ mb: 2 }}>
              {text}
            </Typography>
          ))}
          <Box component="nav" aria-label="Mục lục" sx={{ mb: 3 }}>
            <Box component="ol" sx={{ pl: 3, m: 0, listStyle: 'none' }}>
              {POLICY_SECTIONS.map((section) => (
                <li key={section.id}>
                  <Link href={`#${section.id}`} variant="body2">
                    {section.heading}
                  </Link>
                </li>
              ))}
            </Box>
          </Box>
          {POLICY_SECTIONS.map((section) => (
            <Box component="section" key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`} sx={{ mb: 3, scrollMarginTop: 16 }}>
              <Typography variant="h2" id={`${section.id}-heading`} sx={{ mb: 1.5 }}>
                {section.heading}
              </Typography>
              {section.paragraphs?.map((text) => (
                <Typography key={text} sx={{ mb: 1.5 }}>
                  {text}
                </Typography>
              ))}
              {section.items && (
                <Box component="ul" sx={{ pl: 3, my: 1 }}>
                  {section.items.map((text) => (
                    <Typography component="li" key={text} sx={{ mb: 1 }}>
                      {text}
                    </Typography>
                  ))}
                </Box>
              )}
              {section.closing && <Typography sx={{ mt: 1.5 }}>{section.closing}</Typography>}
            </Box>
          ))}
        </Paper>
      </Container>
    </Box>
  );
}
