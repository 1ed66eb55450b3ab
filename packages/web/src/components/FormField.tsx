import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { alpha, styled } from '@mui/material/styles';

export interface FormFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  id: string;
  label: string;
  /** The validation message; the field is marked invalid while there is one. */
  error?: string | null;
  inputRef?: Ref<HTMLInputElement>;
  /** A button or icon at the end of the field (the password field's show/hide). */
  endAdornment?: ReactNode;
  /** A button beside the label (the password requirements' info button). */
  labelAdornment?: ReactNode;
  /** The id of more text describing the field (aria-describedby, after the message). */
  describedBy?: string;
  /**
   * Keeps the message's line even without a message, so what is below the field (a submit
   * button under the pointer) does not move when the message comes or goes.
   */
  reserveMessageLine?: boolean;
}

const Frame = styled('div')(({ theme }) => ({
  display: 'flex',
  alignItems: 'center',
  paddingRight: theme.spacing(1),
  border: `1px solid ${alpha(theme.palette.text.primary, 0.3)}`,
  borderRadius: theme.shape.borderRadius,
  backgroundColor: theme.palette.background.paper,
  transition: theme.transitions.create(['border-color', 'box-shadow'], { duration: theme.transitions.duration.shorter }),
  '&:hover': { borderColor: theme.palette.text.primary },
  '&:focus-within': { borderColor: theme.palette.primary.main, boxShadow: `0 0 0 1px ${theme.palette.primary.main}` },
  '&[data-invalid="true"]': { borderColor: theme.palette.error.main },
  '&[data-invalid="true"]:focus-within': { boxShadow: `0 0 0 1px ${theme.palette.error.main}` },
  '&[data-readonly="true"]': { backgroundColor: theme.palette.action.hover },
  '&[data-disabled="true"]': { backgroundColor: theme.palette.action.disabledBackground, borderColor: theme.palette.action.disabled },
}));

const Input = styled('input')(({ theme }) => ({
  ...theme.typography.body1,
  flex: 1,
  minWidth: 0,
  height: '1.4375em',
  boxSizing: 'content-box',
  padding: '14px 14px',
  border: 0,
  outline: 0,
  background: 'transparent',
  color: theme.palette.text.primary,
  '&:disabled': { color: theme.palette.text.secondary, WebkitTextFillColor: theme.palette.text.secondary },
  '&::placeholder': { color: theme.palette.text.secondary, opacity: 1 },
}));

/**
 * A text field with its label above it (always visible) and its message tied to it by
 * aria-describedby. A plain styled input keeps the first load of /login small (MUI's TextField
 * also brings its Select, menus and popovers).
 */
export function FormField({ id, label, error, required, endAdornment, labelAdornment, describedBy, reserveMessageLine, inputRef, disabled, ...input }: FormFieldProps) {
  const helperId = `${id}-helper`;
  const describedByIds = [error ? helperId : null, describedBy].filter(Boolean).join(' ') || undefined;
  const labelText = (
    <Typography component="label" htmlFor={id} variant="body2" sx={{ display: 'block', mb: 0.75, fontWeight: 600, color: error ? 'error.main' : 'text.primary' }}>
      {label}
      {required && (
        <Box component="span" aria-hidden sx={{ color: 'error.main' }}>
          {' *'}
        </Box>
      )}
    </Typography>
  );
  return (
    <Box sx={{ mt: 2, mb: 1 }}>
      {labelAdornment ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mb: 0.75, '& > label': { mb: 0 } }}>
          {labelText}
          {labelAdornment}
        </Box>
      ) : (
        labelText
      )}
      <Frame data-invalid={Boolean(error)} data-disabled={Boolean(disabled)} data-readonly={Boolean(input.readOnly)}>
        <Input
          {...input}
          id={id}
          ref={inputRef}
          disabled={disabled}
          required={required}
          aria-invalid={Boolean(error)}
          aria-describedby={describedByIds}
        />
        {endAdornment}
      </Frame>
      {error ? (
        <Typography id={helperId} variant="caption" component="p" sx={{ color: 'error.main', mt: 0.5, mx: 0.5 }}>
          {error}
        </Typography>
      ) : (
        reserveMessageLine && <Typography aria-hidden variant="caption" component="p" sx={{ mt: 0.5, mx: 0.5 }}>{'\u00a0'}</Typography>
      )}
    </Box>
  );
}
