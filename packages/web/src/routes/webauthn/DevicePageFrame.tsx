import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import BackIcon from '@mui/icons-material/ArrowBack';
import DeviceIcon from '@mui/icons-material/FingerprintOutlined';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { CONTENT_MAX_WIDTH, DIALOG_MAX_WIDTH } from '../../theme/themes.ts';
import { PROFILE_PATH, WIDE } from './device-state.ts';

/**
 * The frame of the device pages of the account area (register, verify, delete): a back arrow to
 * Personal information and the title, then one card. Narrow, the card is one column at most
 * 420 px wide; from 1024 px (SPEC.md section 9) it is 720 px wide, the explanation on the left
 * and the form on the right.
 */
export function DevicePageFrame({ title, intro, children }: { title: string; intro: ReactNode; children: ReactNode }) {
  const { t } = useTranslation();
  useDocumentTitle(`${title} · ${t('app.name')}`);
  return (
    <Box sx={{ maxWidth: CONTENT_MAX_WIDTH, mx: 'auto', [WIDE]: { maxWidth: DIALOG_MAX_WIDTH } }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 3 }}>
        <IconButton component={Link} to={PROFILE_PATH} aria-label={t('account.devices.backToProfile')}>
          <BackIcon />
        </IconButton>
        <Typography variant="h1" sx={{ flex: 1, overflowWrap: 'anywhere' }}>
          {title}
        </Typography>
      </Box>
      <Card variant="outlined" sx={{ borderRadius: 3 }}>
        <CardContent
          sx={{
            display: 'grid',
            gap: 2,
            p: { xs: 2, sm: 3 },
            '&:last-child': { pb: { xs: 2, sm: 3 } },
            [WIDE]: { gridTemplateColumns: '220px 1fr', gap: 4, p: 4, '&:last-child': { pb: 4 } },
          }}
        >
          <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start', [WIDE]: { flexDirection: 'column', gap: 2 } }}>
            <Box
              aria-hidden
              sx={{ flexShrink: 0, display: 'grid', placeItems: 'center', width: 48, height: 48, borderRadius: '50%', bgcolor: 'action.selected', color: 'primary.main', [WIDE]: { width: 72, height: 72 } }}
            >
              <DeviceIcon sx={{ fontSize: 28, [WIDE]: { fontSize: 40 } }} />
            </Box>
            <Typography variant="body2" color="textSecondary">
              {intro}
            </Typography>
          </Box>
          <Box sx={{ minWidth: 0 }}>{children}</Box>
        </CardContent>
      </Card>
    </Box>
  );
}
