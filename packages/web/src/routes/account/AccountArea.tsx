import { lazy, Suspense, useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Navigate, Route, Routes } from 'react-router';
import { AccountLayout } from './AccountLayout.tsx';
import { RequireAuth } from './auth-context.tsx';
import { Dashboard } from './Dashboard.tsx';
import { createQueryClient } from './query-client.ts';
import { SigninCallback } from './SigninCallback.tsx';
import { prefetchProfile } from './use-profile.ts';
import { Loading } from '../../components/Loading.tsx';

// Personal information brings the forms and the avatar cropper: a chunk of its own.
const Profile = lazy(() => import('./profile/Profile.tsx'));
// Security and 2-step verification: another chunk, which also holds the re-checked password for the visit.
const SecurityArea = lazy(() => import('./security/SecurityArea.tsx'));
// The device pages bring @simplewebauthn/browser: a chunk of their own.
const DeviceArea = lazy(() => import('../webauthn/DeviceArea.tsx'));

/** /user/*: the signed-in account area, its own chunk (the login screens never load it). */
export default function AccountArea() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <Routes>
        <Route path="callback" element={<SigninCallback />} />
        <Route
          element={
            <RequireAuth onSession={(accessToken, expire) => prefetchProfile(queryClient, accessToken, expire)}>
              <AccountLayout />
            </RequireAuth>
          }
        >
          <Route index element={<Navigate to="/user/dashboard" replace />} />
          <Route path="dashboard" element={<Dashboard />} />
          <Route
            path="profile"
            element={
              <Suspense fallback={<Loading />}>
                <Profile />
              </Suspense>
            }
          />
          <Route
            path="security/*"
            element={
              <Suspense fallback={<Loading />}>
                <SecurityArea />
              </Suspense>
            }
          />
          <Route
            path="webauthn/*"
            element={
              <Suspense fallback={<Loading />}>
                <DeviceArea />
              </Suspense>
            }
          />
          <Route path="*" element={<Navigate to="/user/dashboard" replace />} />
        </Route>
      </Routes>
    </QueryClientProvider>
  );
}
