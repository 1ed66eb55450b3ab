import { useCallback, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { ErrorCode } from '@passgate/contract/rules';
import type { AdminMe, Page } from '@passgate/contract';
import { ApiError } from '../../api/errors.ts';
import Button from '@mui/material/Button';
import { ApiErrorAlert } from '../../components/ApiErrorAlert.tsx';
import { Loading } from '../../components/Loading.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { useAuth } from '../account/auth-context.tsx';
import { AdminProvider, type AdminTenantOption } from './admin-context.tsx';
import { adminSession } from './admin-session.ts';
import { twoStepNeedOf, TwoStepRequiredContext, useAdminApi, type TwoStepNeed } from './use-admin-api.ts';

/**
 * Who may open the console: the admin API's /me answers for an operator or a tenant admin with
 * 2-step verification; anyone else sees why not (and an admin without 2-step is sent to set it up).
 */
export function AdminGate({ children }: { children: ReactNode }) {
  const [twoStepNeed, setTwoStepNeed] = useState<TwoStepNeed | null>(null);
  const needsTwoStep = useCallback((need: TwoStepNeed) => setTwoStepNeed(need), []);
  if (twoStepNeed) return <TwoStepRequired need={twoStepNeed} />;
  return (
    <TwoStepRequiredContext.Provider value={needsTwoStep}>
      <AdminIdentity>{children}</AdminIdentity>
    </TwoStepRequiredContext.Provider>
  );
}

function AdminIdentity({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const adminApi = useAdminApi();
  const me = useQuery({ queryKey: ['admin', 'me'], queryFn: () => adminApi.get<AdminMe>('/me'), staleTime: Infinity });
  const tenants = useQuery({
    queryKey: ['admin', 'tenant-options'],
    enabled: Boolean(me.data),
    staleTime: 60_000,
    queryFn: async (): Promise<AdminTenantOption[]> => {
      const page = await adminApi.get<Page<{ id: string; name: string }>>('/tenants', { page_size: 100 });
      return page.items.map(({ id, name }) => ({ id, name }));
    },
  });

  if (me.error) {
    const need = twoStepNeedOf(me.error);
    if (need) return <TwoStepRequired need={need} />;
    if (me.error instanceof ApiError && me.error.code === ErrorCode.ClientLacksPermission) return <NotAnAdmin />;
    return (
      <GateFrame title={t('admin.title')}>
        <ApiErrorAlert error={me.error} />
      </GateFrame>
    );
  }
  if (!me.data || (!tenants.data && !tenants.error)) return <Loading />;
  // A tenant admin who may not list tenants still works in their own.
  const options = tenants.data ?? me.data.tenantAdminOf.map((id) => ({ id, name: id }));
  return (
    <AdminProvider me={me.data} tenants={options}>
      {children}
    </AdminProvider>
  );
}

/** A screen of its own before the console's layout: its `main`, where a screen reader's 'go to the content' lands. */
function GateFrame({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  return <Box component="main" sx={{ maxWidth: 480, mx: 'auto', mt: { xs: 4, sm: 10 }, px: 2, display: 'flex', flexDirection: 'column', gap: 2 }}>{children}</Box>;
}

/**
 * 403/1304: an admin without an authenticator app or a device goes to set one up in the account
 * area first. 403/1307: one whose sign-in did not use it (a password alone, an SMS or e-mailed
 * code, or a sign-in made before the set-up) signs in again, and the provider asks for the
 * credentials even though its session is alive (prompt=login).
 */
export function TwoStepRequired({ need }: { need: TwoStepNeed }) {
  const { t } = useTranslation();
  const { signOut } = useAuth();
  const location = useLocation();
  const signInAgain = () => void adminSession.startSignIn(`${location.pathname}${location.search}`, { forget: true, reauthenticate: true });
  return (
    <GateFrame title={t(`admin.twoStep.${need}.heading`)}>
      <Typography variant="h1">{t(`admin.twoStep.${need}.heading`)}</Typography>
      <Typography color="textSecondary">{t(`admin.twoStep.${need}.message`)}</Typography>
      {need === 'setUp' ? (
        <Button variant="contained" size="large" href="/user/security/mfa">
          {t('admin.twoStep.setUp.action')}
        </Button>
      ) : (
        <Button variant="contained" size="large" onClick={signInAgain}>
          {t('admin.twoStep.signInAgain.action')}
        </Button>
      )}
      <Button onClick={signOut}>{t('admin.signOut')}</Button>
    </GateFrame>
  );
}

function NotAnAdmin() {
  const { t } = useTranslation();
  const { signOut } = useAuth();
  return (
    <GateFrame title={t('admin.notAdmin.heading')}>
      <Typography variant="h1">{t('admin.notAdmin.heading')}</Typography>
      <Typography color="textSecondary">{t('admin.notAdmin.message')}</Typography>
      <Button variant="contained" onClick={signOut}>
        {t('admin.signOut')}
      </Button>
    </GateFrame>
  );
}
