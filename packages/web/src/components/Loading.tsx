import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { keyframes } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';

const spin = keyframes`to { transform: rotate(360deg); }`;

/** A centred spinner with a label screen readers announce. */
export function Loading({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <Box role="status" aria-live="polite" sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, py: 6 }}>
      <Box
        aria-hidden
        sx={{
          width: 40,
          height: 40,
          borderRadius: '50%',
          border: 4,
          borderColor: 'action.hover',
          borderTopColor: 'primary.main',
          animation: `${spin} 0.9s linear infinite`,
          '@media (prefers-reduced-motion: reduce)': { animationDuration: '2.5s' },
        }}
      />
      <Typography variant="body2" color="textSecondary">
        {label ?? t('common.loading')}
      </Typography>
    </Box>
  );
}
