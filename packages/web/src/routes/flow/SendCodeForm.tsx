import { useRef, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { usernameLabelKey } from '@passgate/contract/rules';
import type { CodeSentResponse, PublicClient, UsernameKind } from '@passgate/contract';
import { ActionButton } from '../../components/ActionButton.tsx';
import { BackToLogin } from './BackToLogin.tsx';
import { RESEND_SECONDS, stateUsername } from './flow-state.ts';
import { FlowErrorAlert } from './FlowErrorAlert.tsx';
import { resendCooldown } from '../../api/errors.ts';
import { checkFlowUsername, describeProblem, refusedField, type FlowProblem } from './flow-validation.ts';
import { RecaptchaNotice } from './RecaptchaNotice.tsx';
import { useFocusAfterRender } from './use-focus-after-render.ts';
import { UsernameField } from './UsernameField.tsx';

interface Props {
  idPrefix: string;
  client: PublicClient;
  kinds: UsernameKind[];
  submitLabel: string;
  /** Sends the code to the account. */
  send: (username: string) => Promise<CodeSentResponse>;
  /** Where to go once it is sent, with the seconds before another may be asked for. */
  onSent: (username: string, cooldownSeconds: number) => void;
}

/**
 * Enter the account, get a code: the activation resend and the password recovery screens. The
 * username may come prefilled in the route state (from Login or the password-expiry screen).
 */
export function SendCodeForm({ idPrefix, client, kinds, submitLabel, send, onSent }: Props) {
  const { t } = useTranslation();
  const location = useLocation();
  const [username, setUsername] = useState(() => stateUsername(location.state) ?? '');
  const [problem, setProblem] = useState<FlowProblem | undefined>();
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const usernameRef = useRef<HTMLInputElement>(null);
  const focusAfterRender = useFocusAfterRender();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    // A new try: the last answer's message goes, whatever this one brings.
    setFailure(null);
    const account = username.trim();
    const found = checkFlowUsername(account, usernameLabelKey(kinds), kinds, client.usernamePolicy);
    setProblem(found);
    if (found) return usernameRef.current?.focus();

    setBusy(true);
    try {
      const { resendAfter } = await send(account);
      onSent(account, resendAfter > 0 ? resendAfter : RESEND_SECONDS);
    } catch (error) {
      // A code went to this account moments ago and is still good: on to where it is entered,
      // whose Resend waits only what is left of the minute.
      const wait = resendCooldown(error);
      if (wait !== null) return onSent(account, wait);
      setBusy(false);
      if (refusedField(error, ['username'])) {
        // Said once, beside the username, which takes the focus.
        setProblem({ kind: 'server', error });
        focusAfterRender(usernameRef);
        return;
      }
      setFailure(error);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
      {failure != null && <FlowErrorAlert error={failure} />}
      <UsernameField
        id={`${idPrefix}-username`}
        kinds={kinds}
        value={username}
        onChange={setUsername}
        inputRef={usernameRef}
        error={describeProblem(t, problem)}
        autoFocus
      />
      <ActionButton type="submit" variant="contained" size="large" fullWidth disabled={busy} sx={{ mt: 3 }}>
        {busy ? t('flow.sending') : submitLabel}
      </ActionButton>
      <RecaptchaNotice config={client.recaptchaConfiguration} />
      <BackToLogin />
    </Box>
  );
}
