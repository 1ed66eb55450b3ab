import { useEffect, useRef, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import { alpha, darken } from '@mui/material/styles';
import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import SuccessOutlined from '@mui/icons-material/CheckCircleOutlineOutlined';
import WarningOutlined from '@mui/icons-material/WarningAmberOutlined';

const icons = { error: ErrorOutline, info: InfoOutlined, success: SuccessOutlined, warning: WarningOutlined };

interface NoticeProps {
  message: string | null | undefined;
  severity?: 'error' | 'info' | 'success' | 'warning';
  /** Take the focus when the message appears (default); off for a message shown on arrival. */
  autoFocus?: boolean;
  /** A button that does what the message asks for (under the message). */
  action?: ReactNode;
}

/**
 * A message box (role alert) that takes the keyboard focus when its message appears, so screen
 * readers announce it and keyboard users land on it. Light on purpose: it is part of the first
 * load of /login.
 */
export function Notice({ message, severity = 'error', autoFocus = true, action }: NoticeProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (message && autoFocus) ref.current?.focus();
  }, [message, autoFocus]);
  if (!message) return null;
  const Icon = icons[severity];
  return (
    <Box
      ref={ref}
      role="alert"
      tabIndex={-1}
      sx={(theme) => ({
        display: 'flex',
        alignItems: 'flex-start',
        gap: 1.5,
        mb: 2,
        px: 2,
        py: 1.5,
        borderRadius: 1,
        typography: 'body2',
        // MUI's warning.dark (#e65100) reads at under 4.5:1 on the tinted box (WCAG AA): darker for warnings.
        color: severity === 'warning' ? darken(theme.palette.warning.dark, 0.3) : theme.palette[severity].dark,
        bgcolor: alpha(theme.palette[severity].main, 0.08),
        border: `1px solid ${alpha(theme.palette[severity].main, 0.3)}`,
        '&:focus-visible': { outline: `2px solid ${theme.palette[severity].main}`, outlineOffset: 2 },
        '&:focus': { outline: 'none' },
      })}
    >
      <Icon fontSize="small" aria-hidden sx={{ mt: '1px', flexShrink: 0 }} />
      <Box sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        {message}
        {action && <Box sx={{ mt: 1 }}>{action}</Box>}
      </Box>
    </Box>
  );
}
