import type { Ref } from 'react';
import TextField from '@mui/material/TextField';
import { OTP_LENGTH } from '@passgate/contract/rules';
import { digitsOnly } from '../lib/one-time-code.ts';

interface Props {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  /** Shown under the field when there is no error. */
  helperText?: string;
  inputRef?: Ref<HTMLInputElement>;
}

/**
 * The account area's one-time code field (an outlined MUI field, like the area's other fields):
 * digits only, 6 at most, offered the code the phone just received, focused as it appears.
 */
export function CodeTextField({ id, label, value, onChange, error, helperText, inputRef }: Props) {
  return (
    <TextField
      id={id}
      inputRef={inputRef}
      label={label}
      value={value}
      onChange={(event) => onChange(digitsOnly(event.target.value))}
      autoComplete="one-time-code"
      autoFocus
      required
      fullWidth
      margin="normal"
      error={Boolean(error)}
      helperText={error ?? helperText}
      slotProps={{ htmlInput: { inputMode: 'numeric', pattern: '[0-9]*', maxLength: OTP_LENGTH, spellCheck: false } }}
    />
  );
}
