import { useTranslation } from 'react-i18next';
import { ClientExitScreen, ClientOfAddress } from '../flow/RequestGone.tsx';

/**
 * /logged-out?client_id=…&locale=…: where a logout ends when the relying party named no address to
 * return to (the provider's postLogoutSuccessSource sends the browser here). It says the user is
 * logged out and leads back to the client, else to a sign-in (the account area asks for one).
 */
export default function LoggedOut() {
  const { t } = useTranslation();
  return (
    <ClientOfAddress>
      {(client) => (
        <ClientExitScreen
          client={client}
          title={t('loggedOut.title')}
          heading={t('loggedOut.heading')}
          message={t('loggedOut.message')}
          back={t('loggedOut.back', { client: client?.clientName })}
          elsewhere={{ href: '/user/dashboard', label: t('loggedOut.logIn') }}
        />
      )}
    </ClientOfAddress>
  );
}
