import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import type { SecurityEvents } from '@passgate/contract';
import { useTranslation } from 'react-i18next';
import { useAccountApi } from '../use-account-api.ts';
import { dateTimeFormat } from '../date-format.ts';

type EventType = SecurityEvents['items'][number]['type'];

type EventKey<T extends string> = T extends `${infer Area}.${infer Event}` ? `${Area}_${Event}` : T;

/** 'login.success' → the i18n key 'login_success' (i18next reads dots as nesting). */
export const eventKey = (type: EventType) => type.replace('.', '_') as EventKey<EventType>;

/** The account's recent security events from the audit table (GET /api/v1/me/security-events). */
export function RecentSecurityEvents() {
  const { t, i18n } = useTranslation();
  const api = useAccountApi();
  const events = useQuery({ queryKey: ['me', 'security-events'], queryFn: () => api.securityEvents(), staleTime: 30_000 });
  const items = events.data?.items ?? [];
  // The same format as the sessions above it on the Security page.
  const format = dateTimeFormat(i18n.language);

  if (events.isPending || events.isError) return null;
  return (
    <>
      <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
        {t('account.security.events.title')}
      </Typography>
      {items.length === 0 ? (
        <Typography variant="body2" color="textSecondary">
          {t('account.security.events.none')}
        </Typography>
      ) : (
        <List dense disablePadding>
          {items.map((item) => (
            <ListItem key={`${item.type}-${item.createdAt}`} disableGutters>
              <ListItemText
                primary={t(`account.security.events.types.${eventKey(item.type)}`)}
                secondary={[format.format(new Date(item.createdAt)), item.ip].filter(Boolean).join(' · ')}
              />
            </ListItem>
          ))}
        </List>
      )}
    </>
  );
}
