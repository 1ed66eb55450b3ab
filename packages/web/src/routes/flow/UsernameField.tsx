import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { PHONE_LENGTH, USERNAME_MAX_LENGTH, usernameLabelKey } from '@passgate/contract/rules';
import type { UsernameKind } from '@passgate/contract';
import { FormField } from '../../components/FormField.tsx';

interface Props {
  id: string;
  kinds: readonly UsernameKind[];
  value: string;
  onChange?: (value: string) => void;
  error?: string | null;
  inputRef?: Ref<HTMLInputElement>;
  readOnly?: boolean;
  autoFocus?: boolean;
}

/** An e-mail and/or phone field labelled by the kinds it takes; phone-only limits the input to 10 characters. */
export function UsernameField({ id, kinds, value, onChange, error, inputRef, readOnly, autoFocus }: Props) {
  const { t } = useTranslation();
  const phoneOnly = kinds.length === 1 && kinds[0] === 'phone';
  const emailOnly = kinds.length === 1 && kinds[0] === 'email';
  return (
    <FormField
      id={id}
      name="username"
      label={t(`fields.${usernameLabelKey(kinds)}`)}
      value={value}
      onChange={(event) => onChange?.(event.target.value)}
      inputRef={inputRef}
      type={phoneOnly ? 'tel' : emailOnly ? 'email' : 'text'}
      autoComplete="username"
      autoFocus={autoFocus}
      readOnly={readOnly}
      required={!readOnly}
      error={error}
      maxLength={phoneOnly ? PHONE_LENGTH : USERNAME_MAX_LENGTH}
      inputMode={phoneOnly ? 'numeric' : 'email'}
      autoCapitalize="none"
      spellCheck={false}
    />
  );
}
