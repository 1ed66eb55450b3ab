import { useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { PasswordPolicy } from '@passgate/contract';
import { PasswordField } from '../../components/PasswordField.tsx';
import { PasswordStrengthMeter } from '../../components/password-strength/PasswordStrengthMeter.tsx';
import { PasswordRequirements } from './PasswordRequirements.tsx';

interface Props {
  idPrefix: string;
  /** The tenant's password policy. */
  policy: PasswordPolicy;
  /** "Password" and "Confirm password" (register) or "New password"… (password update). */
  labels: 'password' | 'newPassword';
  password: string;
  confirm: string;
  onPasswordChange: (value: string) => void;
  onConfirmChange: (value: string) => void;
  passwordError?: string | null;
  confirmError?: string | null;
  passwordRef?: Ref<HTMLInputElement>;
  confirmRef?: Ref<HTMLInputElement>;
}

/**
 * A new password (with the tenant's requirements beside its label and a strength meter under it)
 * and its confirmation.
 */
export function NewPasswordFields(props: Props) {
  const { t } = useTranslation();
  const { idPrefix, labels } = props;
  const requirementsId = `${idPrefix}-password-requirements`;
  const strengthId = `${idPrefix}-password-strength`;
  const [touched, setTouched] = useState(false);
  return (
    <>
      <PasswordField
        id={`${idPrefix}-password`}
        name="new-password"
        label={t(labels === 'password' ? 'fields.password' : 'fields.newPassword')}
        value={props.password}
        onChange={(event) => {
          setTouched(true);
          props.onPasswordChange(event.target.value);
        }}
        onFocus={() => setTouched(true)}
        inputRef={props.passwordRef}
        autoComplete="new-password"
        required
        error={props.passwordError}
        describedBy={`${requirementsId} ${strengthId}`}
        labelAdornment={<PasswordRequirements policy={props.policy} descriptionId={requirementsId} />}
      />
      <PasswordStrengthMeter id={strengthId} password={props.password} active={touched || props.password !== ''} />
      <PasswordField
        id={`${idPrefix}-confirm-password`}
        name="confirm-password"
        label={t(labels === 'password' ? 'fields.confirmPassword' : 'fields.confirmNewPassword')}
        value={props.confirm}
        onChange={(event) => props.onConfirmChange(event.target.value)}
        inputRef={props.confirmRef}
        autoComplete="new-password"
        required
        error={props.confirmError}
      />
    </>
  );
}
