import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { alpha, styled } from '@mui/material/styles';

const Input = styled('input')(({ theme }) => ({
  width: 18,
  height: 18,
  margin: '2px 0 0',
  flexShrink: 0,
  cursor: 'pointer',
  accentColor: theme.palette.primary.main,
  '&:focus-visible': { outline: `3px solid ${alpha(theme.palette.primary.main, 0.5)}`, outlineOffset: 2 },
}));

interface Props {
  id: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** The label; it may hold links (they open without ticking the box). */
  children: ReactNode;
  required?: boolean;
}

/** A native checkbox with its label beside it: light (MUI's Checkbox brings its ripple), keyboard and screen-reader friendly. */
export function CheckboxField({ id, checked, onChange, children, required }: Props) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1.25, mt: 2 }}>
      <Input type="checkbox" id={id} checked={checked} onChange={(event) => onChange(event.target.checked)} required={required} aria-required={required || undefined} />
      <Typography component="label" htmlFor={id} variant="body2" sx={{ cursor: 'pointer', overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Box>
  );
}
