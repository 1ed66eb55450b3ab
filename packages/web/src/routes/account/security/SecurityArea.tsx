import { Navigate, Route, Routes } from 'react-router';
import { HeldPasswordProvider } from './held-password.tsx';
import { MfaGreeting } from './MfaGreeting.tsx';
import { MfaPage } from './MfaPage.tsx';
import { SecurityPage } from './SecurityPage.tsx';

/** /user/security/*: its own chunk; the re-checked password lives here for the visit. */
export default function SecurityArea() {
  return (
    <HeldPasswordProvider>
      <Routes>
        <Route index element={<SecurityPage />} />
        <Route path="mfa/greeting" element={<MfaGreeting />} />
        <Route path="mfa" element={<MfaPage />} />
        <Route path="authenticator" element={<MfaPage />} />
        <Route path="*" element={<Navigate to="/user/security" replace />} />
      </Routes>
    </HeldPasswordProvider>
  );
}
