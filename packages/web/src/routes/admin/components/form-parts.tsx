import type { ChangeEvent, ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { HEX_COLOUR_PATTERN } from '@passgate/contract/rules';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorAlert } from '../../../components/ApiErrorAlert.tsx';

/** A titled block of a form, with a sentence saying what it is for. */
export function FormSection({ id, title, description, children }: { id?: string; title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <Paper component="section" variant="outlined" aria-labelledby={id ? `${id}-title` : undefined} sx={{ p: { xs: 2, sm: 3 }, display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box>
        <Typography id={id ? `${id}-title` : undefined} variant="h2" component="h2">
          {title}
        </Typography>
        {description && (
          <Typography variant="body2" color="textSecondary" sx={{ mt: 0.5 }}>
            {description}
          </Typography>
        )}
      </Box>
      {children}
    </Paper>
  );
}

type TextInputProps = Omit<TextFieldProps, 'onChange' | 'value' | 'error'> & {
  value: string;
  onChange: (value: string) => void;
  /** The problem with the value, shown instead of the hint. */
  error?: string | null;
  /** The rule the field follows, shown under it. */
  hint?: ReactNode;
};

/** A labelled text field with its rule under it, or its problem in place of the rule. */
export function TextInput({ value, onChange, error, hint, ...rest }: TextInputProps) {
  return <TextField fullWidth size="small" value={value} onChange={(event) => onChange(event.target.value)} error={Boolean(error)} helperText={error || hint} {...rest} />;
}

/** A colour: the browser's picker beside the #RRGGBB text (the text may be typed). */
export function ColourInput({ id, label, value, onChange, error, hint }: { id: string; label: string; value: string; onChange: (value: string) => void; error?: string | null; hint?: ReactNode }) {
  const { t } = useTranslation();
  const valid = HEX_COLOUR_PATTERN.test(value);
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
      <Box
        component="input"
        type="color"
        aria-label={t('admin.colourPicker', { field: label })}
        value={valid ? value.toLowerCase() : '#ffffff'}
        onChange={(event: ChangeEvent<HTMLInputElement>) => onChange(event.target.value.toUpperCase())}
        sx={{ width: 44, height: 40, p: 0.25, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'background.paper', cursor: 'pointer', flexShrink: 0 }}
      />
      <TextInput id={id} label={label} value={value} onChange={onChange} error={error} hint={hint} placeholder="#1F5FBF" slotProps={{ htmlInput: { spellCheck: false, maxLength: 7 } }} />
    </Box>
  );
}

/** A switch with its label and, under it, the sentence that says what turning it on does. */
export function SwitchRow({ label, description, checked, onChange, disabled }: { label: string; description: ReactNode; checked: boolean; onChange: (checked: boolean) => void; disabled?: boolean }) {
  return (
    <Box>
      <FormControlLabel control={<Switch checked={checked} onChange={(event) => onChange(event.target.checked)} disabled={disabled} />} label={label} />
      <FormHelperText sx={{ mt: -0.5, ml: 6.5 }}>{description}</FormHelperText>
    </Box>
  );
}

/**
 * The bar under an edit form, kept in view at the bottom of the window: the submit button, 'Saved',
 * how many fields need attention, and a failure that is not about a field (a 400 names its fields beside them).
 */
export function SaveBar({ label, pending, saved, problemCount, error }: { label: string; pending: boolean; saved: boolean; problemCount: number; error: unknown }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ position: 'sticky', bottom: 0, zIndex: 2, py: 1.5, bgcolor: 'background.default', display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
      <Button type="submit" variant="contained" size="large" disabled={pending}>
        {label}
      </Button>
      {saved && (
        <Typography role="status" sx={{ color: 'success.dark' }}>
          {t('admin.saved')}
        </Typography>
      )}
      {problemCount > 0 && (
        <Typography role="alert" sx={{ color: 'error.dark' }}>
          {t('admin.problems.summary', { count: problemCount })}
        </Typography>
      )}
      {error != null && !(error instanceof ApiError && error.status === 400) && <ApiErrorAlert error={error} />}
    </Box>
  );
}
