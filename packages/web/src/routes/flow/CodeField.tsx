import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { FormField } from '../../components/FormField.tsx';
import { digitsOnly } from '../../lib/one-time-code.ts';

interface Props {
  id: string;
  label: 'activationCode' | 'recoveryCode';
  /** A label of the caller's own (wins over `label`). */
  labelText?: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  inputRef?: Ref<HTMLInputElement>;
  autoFocus?: boolean;
  disabled?: boolean;
}

/** A one-time code field: digits only (anything else typed or pasted is dropped, so "123 456" pastes whole), 6 at most. */
export function CodeField({ id, label, labelText, value, onChange, error, inputRef, autoFocus, disabled }: Props) {
  const { t } = useTranslation();
  return (
    <FormField
      id={id}
      name="code"
      label={labelText ?? t(`fields.${label}`)}
      value={value}
      onChange={(event) => onChange(digitsOnly(event.target.value))}
      inputRef={inputRef}
      autoComplete="one-time-code"
      inputMode="numeric"
      pattern="[0-9]*"
      autoFocus={autoFocus}
      disabled={disabled}
      required
      error={error}
      spellCheck={false}
    />
  );
}
