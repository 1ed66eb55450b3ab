import { Navigate, Route, Routes } from 'react-router';
import { Loading } from '../../components/Loading.tsx';
import { AccountErrorNotice } from '../account/AccountErrorNotice.tsx';
import { DeviceCodePage } from './DeviceCodePage.tsx';
import { RegisterDevice } from './RegisterDevice.tsx';
import { useTenant } from './use-webauthn-api.ts';

/**
 * /user/webauthn/*: register, verify and delete a device (its own chunk, with
 * @simplewebauthn/browser). The page guard: a tenant that does not allow devices gives Error 403.
 */
export default function DeviceArea() {
  const tenant = useTenant();
  if (tenant.isPending) return <Loading />;
  if (tenant.isError) return <AccountErrorNotice error={tenant.error} />;
  if (!tenant.data.webauthnAllowed) return <Navigate to="/error" replace state={{ status: 403 }} />;
  return (
    <Routes>
      <Route path="register" element={<RegisterDevice />} />
      <Route path="activation" element={<DeviceCodePage purpose="activation" />} />
      <Route path="deletion" element={<DeviceCodePage purpose="deletion" />} />
      <Route path="*" element={<Navigate to="/user/profile" replace />} />
    </Routes>
  );
}
