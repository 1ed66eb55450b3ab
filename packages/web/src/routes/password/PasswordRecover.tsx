import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { visitorApi } from '../../api/visitor.ts';
import { recaptchaToken } from '../../lib/recaptcha.ts';
import { flowHref } from '../login/login-options.ts';
import { ClientFlowPage } from '../flow/ClientFlowPage.tsx';
import { accountUsernameKinds, canResetPassword } from '../flow/flow-access.ts';
import { codeSentState } from '../flow/flow-state.ts';
import { SendCodeForm } from '../flow/SendCodeForm.tsx';

/** /password/recover?challenge=…: enter the account to get a recovery code, then set a new password. */
export default function PasswordRecover() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  return (
    <ClientFlowPage title={t('passwordRecover.documentTitle')} heading={t('passwordRecover.heading')} intro={t('passwordRecover.instructions')} allowed={canResetPassword}>
      {({ client }) => (
        <SendCodeForm
          idPrefix="password-recover"
          client={client}
          kinds={accountUsernameKinds(client)}
          submitLabel={t('passwordRecover.submit')}
          send={async (username) =>
            visitorApi.recoverPassword({
              clientId: client.clientId,
              username,
              recaptchaToken: await recaptchaToken(client.recaptchaConfiguration, 'password_recover'),
            })
          }
          onSent={(username, cooldownSeconds) => void navigate(flowHref('/password/update', params), { state: codeSentState(username, cooldownSeconds) })}
        />
      )}
    </ClientFlowPage>
  );
}
