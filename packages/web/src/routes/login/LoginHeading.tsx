import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { PublicClient } from '@passgate/contract';

/** The top of the Login screen: the client's logo, 'Sign in' and the client's name (also the admin console's preview). */
export function LoginHeading({ client }: { client: Pick<PublicClient, 'clientName' | 'logoUri'> }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ textAlign: 'center', mb: 3 }}>
      {client.logoUri && (
        <Box component="img" src={client.logoUri} alt={t('login.logoAlt', { client: client.clientName })} sx={{ maxHeight: 64, maxWidth: '70%', mb: 2 }} />
      )}
      <Typography variant="h1" sx={{ overflowWrap: 'anywhere' }}>
        {t('login.heading')}
      </Typography>
      <Typography variant="body2" color="textSecondary" sx={{ mt: 0.5 }}>
        {t('login.subheading', { client: client.clientName })}
      </Typography>
    </Box>
  );
}
