import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { visitorApi } from '../../api/visitor.ts';
import { recaptchaToken } from '../../lib/recaptcha.ts';
import { flowHref } from '../login/login-options.ts';
import { ClientFlowPage } from '../flow/ClientFlowPage.tsx';
import { accountUsernameKinds, canRegister } from '../flow/flow-access.ts';
import { codeSentState } from '../flow/flow-state.ts';
import { SendCodeForm } from '../flow/SendCodeForm.tsx';

/** /activation/resend?challenge=…: enter the e-mail or phone of the account to get a new activation code. */
export default function ActivationResend() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  return (
    <ClientFlowPage title={t('activationResend.documentTitle')} heading={t('activationResend.heading')} intro={t('activationResend.instructions')} allowed={canRegister}>
      {({ client }) => (
        <SendCodeForm
          idPrefix="activation-resend"
          client={client}
          kinds={accountUsernameKinds(client)}
          submitLabel={t('activationResend.submit')}
          send={async (username) =>
            visitorApi.resendActivation({
              clientId: client.clientId,
              username,
              recaptchaToken: await recaptchaToken(client.recaptchaConfiguration, 'activation_resend'),
            })
          }
          onSent={(username, cooldownSeconds) => void navigate(flowHref('/activation', params), { state: codeSentState(username, cooldownSeconds) })}
        />
      )}
    </ClientFlowPage>
  );
}
