import { useRef, useState, type FormEvent, type RefObject } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { NAME_MAX_LENGTH, usernameLabelKey } from '@passgate/contract/rules';
import type { LoginRequestInfo } from '@passgate/contract';
import { visitorApi } from '../../api/visitor.ts';
import { ActionButton } from '../../components/ActionButton.tsx';
import { FormField } from '../../components/FormField.tsx';
import { TextLink } from '../../components/TextLink.tsx';
import { recaptchaToken } from '../../lib/recaptcha.ts';
import { flowHref, registerSocialOptions, registerUsernameKinds } from '../login/login-options.ts';
import { OrSeparator } from '../login/LoginCard.tsx';
import { SocialButtons } from '../login/SocialButtons.tsx';
import { ClientFlowPage } from '../flow/ClientFlowPage.tsx';
import { canRegister } from '../flow/flow-access.ts';
import type { UsernameState } from '../flow/flow-state.ts';
import { FlowErrorAlert } from '../flow/FlowErrorAlert.tsx';
import {
  checkConfirmPassword,
  checkFlowUsername,
  checkName,
  checkNewPassword,
  describeProblem,
  refusedField,
  type FlowField,
  type FlowProblems,
} from '../flow/flow-validation.ts';
import { NewPasswordFields } from '../flow/NewPasswordFields.tsx';
import { RecaptchaNotice } from '../flow/RecaptchaNotice.tsx';
import { useFocusAfterRender } from '../flow/use-focus-after-render.ts';
import { UsernameField } from '../flow/UsernameField.tsx';
import { PolicyCheckboxes } from './PolicyCheckboxes.tsx';

type RegisterField = Exclude<FlowField, 'code'>;
const FIELD_ORDER: RegisterField[] = ['username', 'name', 'password', 'confirmPassword'];
const SOCIAL_HINT_ID = 'register-social-hint';

/** /register?challenge=…: create an account with the client's username kinds and the tenant's password policy. */
export default function Register() {
  const { t } = useTranslation();
  return (
    <ClientFlowPage
      title={t('register.documentTitle')}
      heading={t('register.heading')}
      intro={(client) => t('register.subheading', { client: client.clientName })}
      allowed={canRegister}
    >
      {(info) => <RegisterForm info={info} />}
    </ClientFlowPage>
  );
}

function RegisterForm({ info }: { info: LoginRequestInfo }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const client = info.client;
  const kinds = registerUsernameKinds(client);
  const labelKey = usernameLabelKey(kinds);
  const social = registerSocialOptions(client);

  // A relying party that sends its visitor here (prompt=create) may know the address already; it
  // stays editable, as the visitor is choosing the account's username.
  const [username, setUsername] = useState(() => info.oidcContext.loginHint?.trim() ?? '');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [policyAccepted, setPolicyAccepted] = useState(false);
  const [customAccepted, setCustomAccepted] = useState(false);
  const [problems, setProblems] = useState<FlowProblems>({});
  const [failure, setFailure] = useState<{ error: unknown; attempt: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const refs: Record<RegisterField, RefObject<HTMLInputElement | null>> = {
    username: useRef<HTMLInputElement>(null),
    name: useRef<HTMLInputElement>(null),
    password: useRef<HTMLInputElement>(null),
    confirmPassword: useRef<HTMLInputElement>(null),
  };
  const focusAfterRender = useFocusAfterRender();

  const needsCustom = Boolean(client.tenant.customRegisterCheckbox);
  const accepted = policyAccepted && (!needsCustom || customAccepted);
  const describe = (field: RegisterField) => describeProblem(t, problems[field]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !accepted) return;
    // A new try: the last answer's message goes, whatever this one brings.
    setFailure(null);
    const account = username.trim();
    const found: FlowProblems = {
      username: checkFlowUsername(account, labelKey, kinds, client.usernamePolicy),
      name: checkName(name),
      password: checkNewPassword(password, client.tenant.passwordPolicy),
      confirmPassword: checkConfirmPassword(password, confirm),
    };
    setProblems(found);
    const invalid = FIELD_ORDER.find((field) => found[field]);
    if (invalid) return refs[invalid].current?.focus();

    setBusy(true);
    try {
      const token = await recaptchaToken(client.recaptchaConfiguration, 'register');
      const answer = await visitorApi.register({
        clientId: client.clientId,
        username: account,
        password,
        name: name.trim(),
        recaptchaToken: token,
        challenge: info.challenge,
      });
      const state: UsernameState = { username: answer.username };
      void navigate(flowHref('/activation', params), { state });
    } catch (error) {
      const field = refusedField(error, FIELD_ORDER);
      if (field) {
        // Said once, beside the field it is about (the field takes the focus, so it is read out).
        setProblems((previous) => ({ ...previous, [field]: { kind: 'server', error } }));
        setBusy(false);
        focusAfterRender(refs[field]);
        return;
      }
      setFailure((previous) => ({ error, attempt: (previous?.attempt ?? 0) + 1 }));
      setBusy(false);
    }
  };

  return (
    <>
      {(social.google || social.facebook) && (
        <>
          {/* Signing up with the provider accepts the same policy: held off like the Register button. */}
          <SocialButtons
            info={info}
            google={social.google}
            facebook={social.facebook}
            disabled={busy || !accepted}
            describedBy={accepted ? undefined : SOCIAL_HINT_ID}
            onStarted={() => setFailure(null)}
          />
          {!accepted && (
            <Typography id={SOCIAL_HINT_ID} variant="body2" color="textSecondary" sx={{ mt: 1 }}>
              {t('register.socialNeedsPolicy')}
            </Typography>
          )}
          <OrSeparator label={t('common.or')} />
        </>
      )}
      <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
        {failure && <FlowErrorAlert key={failure.attempt} error={failure.error} fallback={t('messages.registrationFailed')} />}
        <UsernameField
          id="register-username"
          kinds={kinds}
          value={username}
          onChange={setUsername}
          inputRef={refs.username}
          error={describe('username')}
          autoFocus
        />
        <FormField
          id="register-name"
          name="name"
          label={t('fields.name')}
          value={name}
          onChange={(event) => setName(event.target.value)}
          inputRef={refs.name}
          autoComplete="name"
          maxLength={NAME_MAX_LENGTH}
          required
          error={describe('name')}
        />
        <NewPasswordFields
          idPrefix="register"
          policy={client.tenant.passwordPolicy}
          labels="password"
          password={password}
          confirm={confirm}
          onPasswordChange={setPassword}
          onConfirmChange={setConfirm}
          passwordError={describe('password')}
          confirmError={describe('confirmPassword')}
          passwordRef={refs.password}
          confirmRef={refs.confirmPassword}
        />
        <PolicyCheckboxes
          client={client}
          policyAccepted={policyAccepted}
          onPolicyChange={setPolicyAccepted}
          customAccepted={customAccepted}
          onCustomChange={setCustomAccepted}
        />
        <ActionButton type="submit" variant="contained" size="large" fullWidth disabled={busy || !accepted} sx={{ mt: 3 }}>
          {busy ? t('register.submitting') : t('register.submit')}
        </ActionButton>
        <RecaptchaNotice config={client.recaptchaConfiguration} />
        <Box sx={{ mt: 3, textAlign: 'center' }}>
          <Typography variant="body2" component="span" color="textSecondary">
            {t('register.haveAccount')}{' '}
          </Typography>
          <TextLink to={flowHref('/login', params)} sx={{ fontWeight: 700 }}>
            {t('register.login')}
          </TextLink>
        </Box>
      </Box>
    </>
  );
}
