import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Loading } from '../../components/Loading.tsx';
import { accountSession, type OidcSession } from './auth.ts';
import { AUTH_USER_KEY } from './auth-context.tsx';

/** /user/callback (and /admin/callback): finishes the sign-in and returns to the page the user wanted. */
export function SigninCallback({ session = accountSession }: { session?: OidcSession }) {
  const { completeSignIn, safeReturnTo } = session;
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const callback = useQuery({
    queryKey: ['auth', 'callback'],
    queryFn: () => completeSignIn(),
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });

  const user = callback.data;
  const failed = callback.isError;
  useEffect(() => {
    if (user) {
      queryClient.setQueryData(AUTH_USER_KEY, user);
      void navigate(safeReturnTo((user.state as { returnTo?: unknown } | undefined)?.returnTo), { replace: true });
    } else if (failed) {
      void navigate('/error', { replace: true, state: { status: 400 } });
    }
  }, [user, failed, navigate, queryClient, safeReturnTo]);

  return <Loading label={t('account.signingIn')} />;
}
