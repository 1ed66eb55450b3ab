import { useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import FacebookIcon from '@mui/icons-material/Facebook';
import GoogleIcon from '@mui/icons-material/Google';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import type { LoginRequestInfo, SocialAuthorizer } from '@passgate/contract';
import { socialApi } from '../../api/social.ts';
import { ActionButton } from '../../components/ActionButton.tsx';
import { ApiErrorAlert } from '../../components/ApiErrorAlert.tsx';
import { Notice } from '../../components/Notice.tsx';
import { SocialSdkError } from '../../lib/social/sdk.ts';
import { flowHref } from './login-options.ts';
import { useAfterFirstFactor } from './use-after-first-factor.ts';
import type { SocialLinkState } from './social-link-state.ts';
import { useSocialSdk } from './use-social-sdk.ts';

type Failure = { error: unknown; authorizer: SocialAuthorizer; attempt: number };

interface Props {
  info: LoginRequestInfo;
  /** The buttons to show (SPEC.md section 6: the capability and the client's app id). */
  google: boolean;
  facebook: boolean;
  /** Told when the user starts a sign-in, so notices of an earlier step can give way. */
  onStarted?: () => void;
  /** Held off by the screen (Register: until the policy is accepted); the SDK still loads, so the click can open the popup. */
  disabled?: boolean;
  /** The id of the text that says why the buttons are held off. */
  describedBy?: string;
}

/**
 * 'Continue with Google' and 'Continue with Facebook': the provider's popup gives an access token,
 * POST /api/v1/social/login checks it and answers with the redirect, or with linkRequired when the
 * e-mail belongs to an existing account (then the SocialLink screen asks for proof).
 */
export function SocialButtons({ info, google, facebook, onStarted, disabled = false, describedBy }: Props) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const afterFirstFactor = useAfterFirstFactor(info.challenge);
  const [busy, setBusy] = useState<SocialAuthorizer | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const attempts = useRef(0);
  const { client } = info;
  const fail = (error: unknown, authorizer: SocialAuthorizer) => setFailure({ error, authorizer, attempt: ++attempts.current });

  const finish = async (authorizer: SocialAuthorizer, appId: string, pending: Promise<string | null>) => {
    onStarted?.();
    setFailure(null);
    let accessToken: string | null;
    try {
      accessToken = await pending;
    } catch (error) {
      return fail(error, authorizer);
    }
    // The user closed the provider's window: nothing happened, nothing to say.
    if (!accessToken) return;
    setBusy(authorizer);
    try {
      const answer = await socialApi.login({ authorizer, appId, challenge: info.challenge, accessToken, clientId: client.clientId });
      if (!('linkRequired' in answer)) {
        // Stay disabled while the browser leaves for the relying party or the 2-step screen.
        afterFirstFactor(answer, '');
        return;
      }
      const state: SocialLinkState = { linkToken: answer.linkToken, email: answer.email, authorizer, methods: answer.methods };
      void navigate(flowHref('/login/social-link', params), { state });
    } catch (error) {
      fail(error, authorizer);
      setBusy(null);
    }
  };

  const button = (authorizer: SocialAuthorizer, appId: string | null | undefined) =>
    appId ? (
      <SocialButton
        key={authorizer}
        authorizer={authorizer}
        appId={appId}
        disabled={disabled || busy !== null}
        describedBy={describedBy}
        onPending={(pending) => void finish(authorizer, appId, pending)}
      />
    ) : null;

  return (
    <>
      {failure && <SocialFailure key={failure.attempt} error={failure.error} authorizer={failure.authorizer} />}
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        {google && button('google', client.ggApp?.clientId)}
        {facebook && button('facebook', client.fbApp?.clientId)}
      </Box>
    </>
  );
}

const icons = { google: GoogleIcon, facebook: FacebookIcon };

interface ButtonProps {
  authorizer: SocialAuthorizer;
  appId: string;
  disabled: boolean;
  describedBy: string | undefined;
  /** Called inside the click with the popup's outcome. */
  onPending: (pending: Promise<string | null>) => void;
}

/** One provider's button: disabled until its SDK is ready; a short note under it when the SDK cannot be loaded. */
function SocialButton({ authorizer, appId, disabled, describedBy, onPending }: ButtonProps) {
  const { t } = useTranslation();
  const sdk = useSocialSdk(authorizer, appId);
  const Icon = icons[authorizer];
  const noteId = `social-${authorizer}-unavailable`;
  const description = [describedBy, sdk.status === 'failed' ? noteId : undefined].filter(Boolean).join(' ') || undefined;
  // No await before signIn(): the popup may open only within the click's user gesture.
  const click = () => {
    if (sdk.status === 'ready' && !disabled) onPending(sdk.sdk.signIn());
  };
  return (
    <Box>
      <ActionButton
        variant="outlined"
        size="large"
        fullWidth
        startIcon={<Icon />}
        onClick={click}
        disabled={disabled || sdk.status !== 'ready'}
        aria-busy={sdk.status === 'loading'}
        aria-describedby={description}
      >
        {t(`login.${authorizer}`)}
      </ActionButton>
      {/* Not an alert: the page was not asked for anything yet, and the other ways in still work. */}
      {sdk.status === 'failed' && (
        <Typography id={noteId} variant="body2" color="error" sx={{ mt: 0.5 }}>
          {t('social.sdkFailed', { provider: t(`social.providers.${authorizer}`) })}
        </Typography>
      )}
    </Box>
  );
}

/** A failed popup (blocked, or an SDK error) in words of its own; a refused sign-in by its error code (SPEC.md section 8). */
function SocialFailure({ error, authorizer }: { error: unknown; authorizer: SocialAuthorizer }) {
  const { t } = useTranslation();
  if (!(error instanceof SocialSdkError)) return <ApiErrorAlert error={error} />;
  const provider = t(`social.providers.${authorizer}`);
  return <Notice message={error.reason === 'popup' ? t('social.popupBlocked', { provider }) : t('social.failed', { provider })} />;
}
