import { useRef, useState, type FormEvent, type RefObject } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Typography from '@mui/material/Typography';
import ChevronIcon from '@mui/icons-material/ChevronRight';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PASSWORD_POLICY, ErrorCode } from '@passgate/contract/rules';
import type { PasswordPolicy } from '@passgate/contract';
import { ApiError, isUnauthorized } from '../../../api/errors.ts';
import { Notice } from '../../../components/Notice.tsx';
import { PasswordField } from '../../../components/PasswordField.tsx';
import { DIALOG_MAX_WIDTH } from '../../../theme/themes.ts';
import { checkConfirmPassword, checkNewPassword, describeProblem, type FlowProblem } from '../../flow/flow-validation.ts';
import { NewPasswordFields } from '../../flow/NewPasswordFields.tsx';
import { useTenant } from '../../webauthn/use-webauthn-api.ts';
import { AccountErrorNotice } from '../AccountErrorNotice.tsx';
import { useAccountApi } from '../use-account-api.ts';
import { useProfile } from '../use-profile.ts';
import { SESSIONS_KEY } from './ActiveSessions.tsx';

type Field = 'current' | 'password' | 'confirm';
const FIELD_ORDER: Field[] = ['current', 'password', 'confirm'];
/** A problem is a message key of its own (the current password) or one of the new-password problems. */
type Problem = { kind: 'text'; key: 'account.passwordWrong' | 'account.security.changePassword.currentRequired' } | FlowProblem;

/**
 * The dialog of POST /api/v1/me/password: the current password, then the new one with the tenant's
 * requirements and the strength meter (NewPasswordFields) and its confirmation. What the server
 * refuses about a field is said beside that field (a wrong current password, a new password that is
 * too common or was used before); anything else (too many tries, no password) above the form.
 */
function ChangePasswordDialog({ policy, username, onCancel, onDone }: { policy: PasswordPolicy; username: string; onCancel: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const api = useAccountApi();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problems, setProblems] = useState<Partial<Record<Field, Problem>>>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const currentRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);
  const describe = (field: Field) => {
    const problem = problems[field];
    if (!problem) return null;
    return problem.kind === 'text' ? t(problem.key) : describeProblem(t, problem);
  };
  const show = (found: Partial<Record<Field, Problem>>) => {
    setProblems(found);
    const first = FIELD_ORDER.find((field) => found[field]);
    const refs: Record<Field, RefObject<HTMLInputElement | null>> = { current: currentRef, password: passwordRef, confirm: confirmRef };
    if (first) refs[first].current?.focus();
    return Boolean(first);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    const found: Partial<Record<Field, Problem>> = {
      current: current ? undefined : { kind: 'text', key: 'account.security.changePassword.currentRequired' },
      password: checkNewPassword(password, policy, 'newPassword'),
      confirm: checkConfirmPassword(password, confirm),
    };
    if (show(found)) return;
    setBusy(true);
    try {
      await api.changePassword({ currentPassword: current, newPassword: password });
      onDone();
    } catch (error) {
      setBusy(false);
      if (isUnauthorized(error)) return;
      if (error instanceof ApiError && error.code === ErrorCode.WrongCredentials) {
        show({ current: { kind: 'text', key: 'account.passwordWrong' } });
      } else if (error instanceof ApiError && error.status < 500 && error.field === 'new_password') {
        show({ password: { kind: 'server', error } });
      } else {
        setFailure(error);
      }
    }
  };

  return (
    <Dialog
      open
      onClose={busy ? undefined : onCancel}
      aria-labelledby="change-password-title"
      aria-describedby="change-password-text"
      maxWidth={false}
      slotProps={{ paper: { sx: { maxWidth: DIALOG_MAX_WIDTH, width: { xs: 'calc(100% - 32px)', sm: 480 }, m: { xs: 2, sm: 4 } } } }}
    >
      <DialogTitle id="change-password-title" component="h2" sx={{ typography: 'h2' }}>
        {t('account.security.changePassword.title')}
      </DialogTitle>
      <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
        <DialogContent sx={{ pt: 0 }}>
          <Typography id="change-password-text" color="textSecondary" sx={{ mb: 2 }}>
            {t('account.security.changePassword.description')}
          </Typography>
          <AccountErrorNotice error={failure} />
          {/* For password managers: whose password this is. */}
          <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
          <PasswordField
            id="change-password-current"
            name="current-password"
            label={t('account.security.changePassword.currentPassword')}
            value={current}
            onChange={(event) => setCurrent(event.target.value)}
            inputRef={currentRef}
            autoComplete="current-password"
            autoFocus
            required
            error={describe('current')}
          />
          <NewPasswordFields
            idPrefix="change-password"
            policy={policy}
            labels="newPassword"
            password={password}
            confirm={confirm}
            onPasswordChange={setPassword}
            onConfirmChange={setConfirm}
            passwordError={describe('password')}
            confirmError={describe('confirm')}
            passwordRef={passwordRef}
            confirmRef={confirmRef}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onCancel} disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {busy ? t('account.security.changePassword.submitting') : t('account.security.changePassword.submit')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

/**
 * The Security page's 'Change password' line, for accounts that have a password: opens the dialog,
 * and says when it is done (the other sessions are signed out, so their list is read again).
 */
export function ChangePasswordItem() {
  const { t } = useTranslation();
  const profile = useProfile();
  const tenant = useTenant();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [changed, setChanged] = useState(false);
  const data = profile.data;
  if (!data?.hasPassword) return null;

  return (
    <ListItem disablePadding divider sx={{ flexWrap: 'wrap' }}>
      <ListItemButton
        onClick={() => {
          setChanged(false);
          setOpen(true);
        }}
        sx={{ px: 0, py: 1.5 }}
      >
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, width: '100%' }}>
          <Typography sx={{ flex: '0 0 200px', fontWeight: 500 }}>{t('account.security.changePassword.row')}</Typography>{' '}
          {/* On a narrow screen the hint goes under the label rather than into a thin column beside it. */}
          <Typography sx={{ flex: 1, minWidth: 180 }} color="textSecondary">
            {t('account.security.changePassword.hint')}
          </Typography>
        </Box>
        <ChevronIcon aria-hidden sx={{ color: 'text.secondary' }} />
      </ListItemButton>
      {changed && (
        <Box sx={{ width: '100%', pb: 1.5 }}>
          <Notice severity="success" message={t('account.security.changePassword.done')} />
        </Box>
      )}
      {open && (
        <ChangePasswordDialog
          policy={tenant.data?.passwordPolicy ?? DEFAULT_PASSWORD_POLICY}
          username={data.email ?? data.phoneNumber ?? ''}
          onCancel={() => setOpen(false)}
          onDone={() => {
            setOpen(false);
            setChanged(true);
            void queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
            void queryClient.invalidateQueries({ queryKey: ['me', 'security-events'] });
          }}
        />
      )}
    </ListItem>
  );
}
