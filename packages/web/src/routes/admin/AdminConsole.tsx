import { lazy, Suspense, useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Navigate, Route, Routes } from 'react-router';
import { Loading } from '../../components/Loading.tsx';
import { RequireAuth } from '../account/auth-context.tsx';
import { createQueryClient } from '../account/query-client.ts';
import { SigninCallback } from '../account/SigninCallback.tsx';
import { AdminGate } from './AdminGate.tsx';
import { AdminLayout } from './AdminLayout.tsx';
import { adminSession } from './admin-session.ts';
import { AdminSignedOut } from './AdminSignedOut.tsx';
import { ClientsPage } from './clients/ClientsPage.tsx';
import { ClientEditPage } from './clients/ClientEditPage.tsx';
import { ClientCreatePage } from './clients/ClientCreatePage.tsx';
import { TenantsPage } from './tenants/TenantsPage.tsx';
import { TenantEditPage } from './tenants/TenantEditPage.tsx';
import { UsersPage } from './users/UsersPage.tsx';
import { UserPage } from './users/UserPage.tsx';
import { AuditPage } from './audit/AuditPage.tsx';

// The chart library is the console's largest dependency: loaded with the dashboard only.
const DashboardPage = lazy(() => import('./dashboard/DashboardPage.tsx'));

/**
 * /admin/*: the admin console (issue 17), a chunk of its own with its strings: nothing of it is
 * part of the sign-in screens' first load. Operators and tenant admins sign in through Passgate
 * with the `admin-console` client.
 */
export default function AdminConsole() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <Routes>
        <Route path="callback" element={<SigninCallback session={adminSession} />} />
        <Route path="signed-out" element={<AdminSignedOut />} />
        <Route
          element={
            <RequireAuth session={adminSession} expiredPath="/admin/signed-out">
              <AdminGate>
                <AdminLayout />
              </AdminGate>
            </RequireAuth>
          }
        >
          <Route index element={<Navigate to="/admin/dashboard" replace />} />
          <Route
            path="dashboard"
            element={
              <Suspense fallback={<Loading />}>
                <DashboardPage />
              </Suspense>
            }
          />
          <Route path="tenants" element={<TenantsPage />} />
          <Route path="tenants/new" element={<TenantEditPage />} />
          <Route path="tenants/:tenantId" element={<TenantEditPage />} />
          <Route path="clients" element={<ClientsPage />} />
          <Route path="tenants/:tenantId/clients/new" element={<ClientCreatePage />} />
          <Route path="tenants/:tenantId/clients/:clientId" element={<ClientEditPage />} />
          <Route path="users" element={<UsersPage />} />
          <Route path="tenants/:tenantId/users/:userId" element={<UserPage />} />
          <Route path="audit" element={<AuditPage />} />
          <Route path="*" element={<Navigate to="/admin/dashboard" replace />} />
        </Route>
      </Routes>
    </QueryClientProvider>
  );
}
