import { useEffect } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { NAME_MAX_LENGTH } from '@passgate/contract/rules';
import type { Gender, Profile, ProfileUpdateBody } from '@passgate/contract';
import { CONTENT_MAX_WIDTH } from '../../../theme/themes.ts';
import { AccountErrorNotice } from '../AccountErrorNotice.tsx';
import { useAccountApi } from '../use-account-api.ts';
import { PROFILE_KEY } from '../use-profile.ts';
import { checkBirthday, formatBirthday, maskBirthday, parseBirthday } from './birthday.ts';
import { SectionCard } from './SectionCard.tsx';
import { useProfileNotice } from './profile-notice.tsx';

const GENDERS: readonly Gender[] = ['Male', 'Female', 'Other'];

interface Values {
  name: string;
  /** DD/MM/YYYY, or empty. */
  birthday: string;
  gender: Gender | '';
}

function valuesOf(profile: Profile): Values {
  return { name: profile.name ?? '', birthday: formatBirthday(profile.birthday), gender: profile.gender ?? '' };
}

/** What PATCH /api/v1/me is sent: the birthday as that day's midnight UTC, empty fields cleared. */
export function profileUpdate(values: Values): ProfileUpdateBody {
  return {
    name: values.name.trim(),
    birthday: values.birthday.trim() ? parseBirthday(values.birthday) : null,
    gender: values.gender || null,
  };
}

/** The Profile card: name, birthday (DD/MM/YYYY) and gender, saved with PATCH /api/v1/me. */
export function ProfileForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const api = useAccountApi();
  const queryClient = useQueryClient();
  const notice = useProfileNotice('profile');
  const form = useForm<Values>({ values: valuesOf(profile), mode: 'onSubmit', reValidateMode: 'onChange' });
  const { errors } = form.formState;
  const { ref: nameRef, ...nameField } = form.register('name', {
    validate: (name) => {
      if (!name.trim()) return t('validation.required', { field: t('fields.name').toLocaleLowerCase() });
      if (name.trim().length > NAME_MAX_LENGTH) return t('account.profile.basic.nameTooLong', { count: NAME_MAX_LENGTH });
      return true;
    },
  });

  const save = useMutation({
    mutationFn: (values: Values) => api.updateProfile(profileUpdate(values)),
    onSuccess: (updated) => {
      queryClient.setQueryData(PROFILE_KEY, updated);
      notice.show('success', t('account.profile.updated'));
    },
  });

  const submit = form.handleSubmit((values) => {
    notice.clear();
    save.mutate(values);
  });

  // A field error (on Save, or while typing after a save) replaces the page's notice and the card's
  // last refusal: a success message beside it would contradict it.
  const hasFieldErrors = Object.keys(errors).length > 0;
  const { dismiss } = notice;
  const { reset: forgetSaveError } = save;
  useEffect(() => {
    if (!hasFieldErrors) return;
    dismiss();
    forgetSaveError();
  }, [hasFieldErrors, dismiss, forgetSaveError]);

  return (
    <SectionCard id="profile-title" title={t('account.profile.basic.title')}>
      <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ maxWidth: CONTENT_MAX_WIDTH }}>
        {notice.slot}
        <AccountErrorNotice error={save.error} />
        <TextField
          {...nameField}
          inputRef={nameRef}
          id="profile-name"
          label={t('fields.name')}
          required
          fullWidth
          margin="normal"
          autoComplete="name"
          error={Boolean(errors.name)}
          helperText={errors.name?.message}
          slotProps={{ htmlInput: { maxLength: NAME_MAX_LENGTH } }}
        />
        <Controller
          control={form.control}
          name="birthday"
          rules={{
            validate: (birthday) => {
              const problem = checkBirthday(birthday);
              if (problem === 'format') return t('account.profile.basic.birthdayInvalid');
              if (problem === 'range') return t('account.profile.basic.birthdayRange');
              return true;
            },
          }}
          render={({ field: { ref, ...field }, fieldState }) => (
            <TextField
              {...field}
              inputRef={ref}
              onChange={(event) => field.onChange(maskBirthday(event.target.value))}
              id="profile-birthday"
              label={t('account.profile.basic.birthday')}
              placeholder={t('account.profile.basic.birthdayPlaceholder')}
              fullWidth
              margin="normal"
              autoComplete="bday"
              error={Boolean(fieldState.error)}
              helperText={fieldState.error?.message ?? t('account.profile.basic.birthdayHint')}
              slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 10 }, inputLabel: { shrink: true } }}
            />
          )}
        />
        <Controller
          control={form.control}
          name="gender"
          render={({ field: { ref, ...field } }) => (
            <FormControl component="fieldset" margin="normal" fullWidth>
              <FormLabel component="legend">{t('account.profile.basic.gender')}</FormLabel>
              <RadioGroup row ref={ref} name={field.name} value={field.value} onChange={(event) => field.onChange(event.target.value)} onBlur={field.onBlur}>
                {GENDERS.map((gender) => (
                  <FormControlLabel key={gender} value={gender} control={<Radio />} label={t(`account.profile.basic.genders.${gender}`)} />
                ))}
              </RadioGroup>
            </FormControl>
          )}
        />
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
          <Button type="submit" variant="contained" disabled={save.isPending} sx={{ minWidth: 112 }}>
            {save.isPending ? t('common.saving') : t('common.save')}
          </Button>
        </Box>
      </Box>
    </SectionCard>
  );
}
