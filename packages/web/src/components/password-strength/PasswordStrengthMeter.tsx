import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { usePasswordStrength } from './use-password-strength.ts';
import type { StrengthScore } from './zxcvbn.ts';

type Level = 'weak' | 'fair' | 'good' | 'strong';

/** zxcvbn's 0 and 1 are both guessable within hours offline: one word, 'weak', for both. */
const LEVELS: Record<StrengthScore, { level: Level; bars: number; color: string }> = {
  0: { level: 'weak', bars: 1, color: 'error.main' },
  1: { level: 'weak', bars: 1, color: 'error.main' },
  2: { level: 'fair', bars: 2, color: 'warning.main' },
  3: { level: 'good', bars: 3, color: 'success.light' },
  4: { level: 'strong', bars: 4, color: 'success.dark' },
};

interface Props {
  id: string;
  password: string;
  /** True once the field has been focused or typed in: zxcvbn is loaded only then. */
  active: boolean;
}

/**
 * A strength meter under a new password: four bars and a word (weak, fair, good, strong), so the
 * colour is never the only signal, exposed as a labelled meter. A hint only: the server's rules
 * (the tenant policy and the list of common breached passwords) are what accept a password.
 */
export function PasswordStrengthMeter({ id, password, active }: Props) {
  const { t } = useTranslation();
  const score = usePasswordStrength(password, active);
  if (score === null) return null;
  const { level, bars, color } = LEVELS[score];
  const labelId = `${id}-label`;
  const text = t(`passwordStrength.${level}`);
  return (
    <Box
      id={id}
      role="meter"
      aria-labelledby={labelId}
      aria-valuemin={0}
      aria-valuemax={4}
      aria-valuenow={score}
      aria-valuetext={text}
      sx={{ mt: -0.5, mb: 1 }}
    >
      <Box aria-hidden sx={{ display: 'flex', gap: 0.5 }}>
        {[1, 2, 3, 4].map((bar) => (
          <Box key={bar} sx={{ flex: 1, height: 4, borderRadius: 2, bgcolor: bar <= bars ? color : 'action.disabledBackground' }} />
        ))}
      </Box>
      <Typography variant="caption" component="p" sx={{ mt: 0.5, mx: 0.5, color: 'text.secondary' }}>
        <span id={labelId}>{t('passwordStrength.label')}</span>
        {': '}
        <Box component="strong" sx={{ color: 'text.primary' }}>
          {text}
        </Box>
      </Typography>
    </Box>
  );
}
