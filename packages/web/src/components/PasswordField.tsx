import { useState } from 'react';
import { ActionButton } from './ActionButton.tsx';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { useTranslation } from 'react-i18next';
import { FormField, type FormFieldProps } from './FormField.tsx';

/** A password field with a show/hide button. */
export function PasswordField(props: Omit<FormFieldProps, 'type' | 'endAdornment'>) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <FormField
      {...props}
      type={visible ? 'text' : 'password'}
      endAdornment={
        <ActionButton
          aria-label={visible ? t('login.hidePassword') : t('login.showPassword')}
          aria-pressed={visible}
          onClick={() => setVisible((v) => !v)}
          onMouseDown={(event) => event.preventDefault()}
          sx={{ minWidth: 0, minHeight: 0, p: 1, mr: -1, borderRadius: '50%', color: 'text.secondary' }}
        >
          {visible ? <VisibilityOff /> : <Visibility />}
        </ActionButton>
      }
    />
  );
}
