import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import type { AdminCodeSent, AdminUserDetail } from '@passgate/contract';
import { ApiErrorAlert } from '../../../components/ApiErrorAlert.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { PageHeading, ScrollArea } from '../components/list-parts.tsx';
import { formatTime } from '../format.ts';
import { useAdminApi } from '../use-admin-api.ts';
import { UserStatusChips, useRegistrationMethod } from './UsersPage.tsx';

type Action =
  | { kind: 'disable' }
  | { kind: 'enable' }
  | { kind: 'unlock' }
  | { kind: 'activation' }
  | { kind: 'passwordReset' }
  | { kind: 'mfaOff' }
  | { kind: 'signOut' }
  | { kind: 'delete' }
  | { kind: 'removeDevice'; deviceId: string; deviceName: string };

/** /admin/tenants/:tenantId/users/:userId: a user's account at a glance, and the support actions on it. */
export function UserPage() {
  const { t, i18n } = useTranslation();
  const { tenantId = '', userId = '' } = useParams();
  const adminApi = useAdminApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const registrationMethod = useRegistrationMethod();
  const [action, setAction] = useState<Action | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const path = `/tenants/${encodeURIComponent(tenantId)}/users/${encodeURIComponent(userId)}`;
  const key = ['admin', 'tenants', tenantId, 'users', userId];
  const user = useQuery({ queryKey: key, queryFn: () => adminApi.get<AdminUserDetail>(path) });
  const title = user.data ? (user.data.email ?? user.data.phoneNumber ?? user.data.id) : t('admin.users.user');
  useDocumentTitle(`${title} · ${t('admin.title')}`);

  if (user.error) return <ApiErrorAlert error={user.error} />;
  if (!user.data) return <Loading />;
  const u = user.data;
  const when = (iso: string | null) => (iso ? formatTime(iso, i18n.language) : t('admin.users.never'));

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: key });
    void queryClient.invalidateQueries({ queryKey: ['admin', 'tenants', tenantId, 'users', 'list'] });
  };
  /** Runs an action without a dialog (one that is easily undone), saying how it went. */
  const runNow = async (kind: Action['kind'], call: () => Promise<unknown>) => {
    setDone(null);
    setFailure(null);
    try {
      const answer = await call();
      setDone(doneText(kind, answer));
      refresh();
    } catch (error) {
      setFailure(error);
    }
  };
  const doneText = (kind: Action['kind'], answer: unknown) => {
    const sent = answer as Partial<AdminCodeSent> | undefined;
    if ((kind === 'activation' || kind === 'passwordReset') && sent?.destination) return t(`admin.users.done.${kind}`, { destination: sent.destination });
    return t(`admin.users.done.${kind}`, { destination: '' });
  };

  const dialog = action && confirmation(action);
  function confirmation(a: Action): { title: string; message: string; label: string; destructive: boolean; typed?: string; call: () => Promise<unknown> } {
    switch (a.kind) {
      case 'disable':
        return { title: t('admin.users.actions.disable'), message: t('admin.users.confirm.disable'), label: t('admin.users.actions.disable'), destructive: true, call: () => adminApi.post(`${path}/disable`) };
      case 'unlock':
        // Not destructive, but there is no locking again by hand: it is asked like the others.
        return { title: t('admin.users.actions.unlock'), message: t('admin.users.confirm.unlock'), label: t('admin.users.actions.unlock'), destructive: false, call: () => adminApi.post(`${path}/unlock`) };
      case 'mfaOff':
        return { title: t('admin.users.actions.mfaOff'), message: t('admin.users.confirm.mfaOff'), label: t('admin.users.actions.mfaOff'), destructive: true, call: () => adminApi.delete(`${path}/mfa`) };
      case 'signOut':
        return { title: t('admin.users.actions.signOut'), message: t('admin.users.confirm.signOut'), label: t('admin.users.actions.signOut'), destructive: true, call: () => adminApi.post(`${path}/sign-out`) };
      case 'removeDevice':
        return {
          title: t('admin.users.actions.removeDevice'),
          message: t('admin.users.confirm.removeDevice', { device: a.deviceName }),
          label: t('admin.users.actions.removeDevice'),
          destructive: true,
          call: () => adminApi.delete(`${path}/devices/${encodeURIComponent(a.deviceId)}`),
        };
      case 'delete':
        return { title: t('admin.users.actions.delete'), message: t('admin.users.confirm.delete'), label: t('admin.users.actions.delete'), destructive: true, typed: u.email ?? u.phoneNumber ?? u.id, call: () => adminApi.delete(path) };
      default:
        return { title: '', message: '', label: '', destructive: false, call: () => Promise.resolve() };
    }
  }

  return (
    <Box sx={{ maxWidth: 960 }}>
      <PageHeading
        title={title}
        subtitle={u.name ?? undefined}
        actions={
          <Button component={RouterLink} to="/admin/users">
            {t('admin.users.backToList')}
          </Button>
        }
      />
      {done && (
        <Alert severity="success" role="status" onClose={() => setDone(null)} sx={{ mb: 2 }}>
          {done}
        </Alert>
      )}
      {failure != null && (
        <Box sx={{ mb: 2 }}>
          <ApiErrorAlert error={failure} />
        </Box>
      )}

      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 3 }}>
        <Card title={t('admin.users.sections.profile')}>
          <Facts
            rows={[
              [t('admin.users.fields.status'), <UserStatusChips key="s" user={u} />],
              [t('admin.users.fields.email'), u.email ? `${u.email}${u.emailVerified ? '' : ` (${t('admin.users.unverified')})`}` : '—'],
              [t('admin.users.fields.phone'), u.phoneNumber ? `${u.phoneNumber}${u.phoneNumberVerified ? '' : ` (${t('admin.users.unverified')})`}` : '—'],
              [t('admin.users.fields.name'), u.name ?? '—'],
              [t('admin.users.fields.registrationMethod'), registrationMethod(u.registrationMethod)],
              [t('admin.users.fields.createdAt'), when(u.createdAt)],
              [t('admin.users.fields.lastSignIn'), when(u.lastSignInAt)],
              [t('admin.users.fields.password'), u.hasPassword ? t('admin.users.passwordChanged', { when: when(u.passwordChangedAt) }) : t('admin.users.noPassword')],
              [t('admin.users.fields.failedLogins'), String(u.failedLoginCount)],
              ...(u.locked ? ([[t('admin.users.fields.lockedUntil'), when(u.lockedUntil)]] as [string, ReactNode][]) : []),
            ]}
          />
        </Card>

        <Card title={t('admin.users.sections.actions')}>
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, alignItems: 'flex-start' }}>
            {u.status === 'disabled' ? (
              <Button variant="outlined" onClick={() => void runNow('enable', () => adminApi.post(`${path}/enable`))}>
                {t('admin.users.actions.enable')}
              </Button>
            ) : (
              <Button variant="outlined" color="error" onClick={() => setAction({ kind: 'disable' })}>
                {t('admin.users.actions.disable')}
              </Button>
            )}
            {u.locked && (
              <Button variant="outlined" onClick={() => setAction({ kind: 'unlock' })}>
                {t('admin.users.actions.unlock')}
              </Button>
            )}
            {u.status === 'pending' && (
              <Button variant="outlined" onClick={() => void runNow('activation', () => adminApi.post(`${path}/activation`))}>
                {t('admin.users.actions.activation')}
              </Button>
            )}
            {u.status === 'active' && (
              <Button variant="outlined" onClick={() => void runNow('passwordReset', () => adminApi.post(`${path}/password-reset`))}>
                {t('admin.users.actions.passwordReset')}
              </Button>
            )}
            {u.twoStep.method && (
              <Button variant="outlined" color="error" onClick={() => setAction({ kind: 'mfaOff' })}>
                {t('admin.users.actions.mfaOff')}
              </Button>
            )}
            <Button variant="outlined" color="error" onClick={() => setAction({ kind: 'signOut' })}>
              {t('admin.users.actions.signOut')}
            </Button>
            <Divider flexItem sx={{ my: 1 }} />
            <Button variant="contained" color="error" onClick={() => setAction({ kind: 'delete' })}>
              {t('admin.users.actions.delete')}
            </Button>
          </Box>
        </Card>

        <Card title={t('admin.users.sections.signIn')}>
          <Facts
            rows={[
              [t('admin.users.fields.twoStep'), u.twoStep.method ? t(`admin.users.twoStepMethods.${u.twoStep.method}`) : t('admin.users.twoStepOff')],
              [t('admin.users.fields.backupCodes'), String(u.twoStep.backupCodesRemaining)],
              [
                t('admin.users.fields.identities'),
                u.identities.length ? u.identities.map((identity) => `${identity.provider}${identity.email ? ` (${identity.email})` : ''}`).join(', ') : t('admin.users.noneLinked'),
              ],
            ]}
          />
          <Typography variant="subtitle2" sx={{ mt: 2, mb: 1 }}>
            {t('admin.users.fields.devices')}
          </Typography>
          {u.devices.length === 0 && (
            <Typography variant="body2" color="textSecondary">
              {t('admin.users.noDevices')}
            </Typography>
          )}
          {u.devices.map((device) => (
            <Box key={device.id} sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 0.5, flexWrap: 'wrap' }}>
              <Box sx={{ flex: 1, minWidth: 160 }}>
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {device.deviceName}
                  {!device.active && ` (${t('admin.users.deviceInactive')})`}
                </Typography>
                <Typography variant="caption" color="textSecondary">
                  {t('admin.users.deviceUsed', { when: when(device.lastUsedAt) })}
                </Typography>
              </Box>
              <Button size="small" color="error" onClick={() => setAction({ kind: 'removeDevice', deviceId: device.id, deviceName: device.deviceName })}>
                {t('admin.users.actions.removeDevice')}
              </Button>
            </Box>
          ))}
        </Card>

        <Card title={t('admin.users.sections.events')}>
          {u.recentEvents.length === 0 ? (
            <Typography variant="body2" color="textSecondary">
              {t('admin.users.noEvents')}
            </Typography>
          ) : (
            <ScrollArea label={t('admin.users.sections.events')}>
              <Table size="small" aria-label={t('admin.users.sections.events')}>
                <TableHead>
                  <TableRow>
                    <TableCell>{t('admin.audit.columns.time')}</TableCell>
                    <TableCell>{t('admin.audit.columns.type')}</TableCell>
                    <TableCell>{t('admin.audit.columns.by')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {u.recentEvents.map((event) => (
                    <TableRow key={event.id}>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTime(event.createdAt, i18n.language)}</TableCell>
                      <TableCell>
                        <code>{event.type}</code>
                      </TableCell>
                      <TableCell>{event.details?.by === 'admin' ? t('admin.audit.byAdmin') : (event.clientId ?? '—')}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </ScrollArea>
          )}
        </Card>
      </Box>

      {dialog && action && (
        <ConfirmDialog
          open
          title={dialog.title}
          message={dialog.message}
          confirmLabel={dialog.label}
          destructive={dialog.destructive}
          typeToConfirm={dialog.typed}
          onConfirm={async () => {
            setDone(null);
            setFailure(null);
            const answer = await dialog.call();
            if (action.kind === 'delete') {
              void queryClient.invalidateQueries({ queryKey: ['admin', 'tenants', tenantId, 'users', 'list'] });
              void navigate('/admin/users', { replace: true });
              return;
            }
            setDone(doneText(action.kind, answer));
            refresh();
          }}
          onClose={() => setAction(null)}
        />
      )}
    </Box>
  );
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" sx={{ p: { xs: 2, sm: 3 }, minWidth: 0 }}>
      <Typography variant="h2" component="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'minmax(120px, auto) 1fr' }, columnGap: 2, rowGap: { xs: 0.25, sm: 1 }, m: 0 }}>
      {rows.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Box component="dt" sx={{ color: 'text.secondary', typography: 'body2', mt: { xs: 1, sm: 0 } }}>
            {label}
          </Box>
          <Box component="dd" sx={{ m: 0, typography: 'body2', overflowWrap: 'anywhere' }}>
            {value}
          </Box>
        </Box>
      ))}
    </Box>
  );
}
