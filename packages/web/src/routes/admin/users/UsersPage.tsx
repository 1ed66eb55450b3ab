import { useCallback, useState } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { AdminUserList, AdminUserStatus, AdminUserSummary } from '@passgate/contract';
import { ApiErrorAlert } from '../../../components/ApiErrorAlert.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { useAdmin } from '../admin-context.tsx';
import { EmptyRow, ListFrame, PageHeading, SearchBox } from '../components/list-parts.tsx';
import { useAdminApi } from '../use-admin-api.ts';

const STATUSES: AdminUserStatus[] = ['active', 'pending', 'disabled'];
const ANY = 'any';

/** A user's status (and lock) as small coloured labels. */
export function UserStatusChips({ user }: { user: Pick<AdminUserSummary, 'status' | 'locked'> }) {
  const { t } = useTranslation();
  const colour = user.status === 'active' ? 'success' : user.status === 'disabled' ? 'error' : 'warning';
  return (
    <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
      <Chip size="small" color={colour} variant="outlined" label={t(`admin.users.status.${user.status}`)} />
      {user.locked && <Chip size="small" color="error" label={t('admin.users.locked')} />}
    </Box>
  );
}

const REGISTRATION_METHODS = ['password', 'passwordless', 'google', 'facebook', 'apple'] as const;

/** How the account was registered, in words (a method this console does not know yet as the API names it). */
export function useRegistrationMethod(): (method: string) => string {
  const { t } = useTranslation();
  return (method) => ((REGISTRATION_METHODS as readonly string[]).includes(method) ? t(`admin.users.registrationMethods.${method as (typeof REGISTRATION_METHODS)[number]}`) : method);
}

/** /admin/users: the picked tenant's users found by the start of their e-mail, phone or name. */
export function UsersPage() {
  const { t } = useTranslation();
  const adminApi = useAdminApi();
  const { tenantId, tenants } = useAdmin();
  const registrationMethod = useRegistrationMethod();
  const [q, setQ] = useState('');
  const [status, setStatus] = useState<AdminUserStatus | typeof ANY>(ANY);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  useDocumentTitle(`${t('admin.menu.users')} · ${t('admin.title')}`);
  const tenantName = tenants.find((tenant) => tenant.id === tenantId)?.name ?? tenantId;
  const list = useQuery({
    queryKey: ['admin', 'tenants', tenantId, 'users', 'list', { q, status, page, pageSize }],
    enabled: Boolean(tenantId),
    placeholderData: keepPreviousData,
    queryFn: () => adminApi.get<AdminUserList>(`/tenants/${encodeURIComponent(tenantId ?? '')}/users`, { q, status: status === ANY ? undefined : status, page, page_size: pageSize }),
  });
  const search = useCallback((value: string) => {
    setQ(value);
    setPage(1);
  }, []);

  if (!tenantId) return <PageHeading title={t('admin.menu.users')} subtitle={t('admin.noTenant')} />;
  return (
    <Box>
      <PageHeading title={t('admin.menu.users')} subtitle={t('admin.users.subtitle', { tenant: tenantName })} />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mb: 2, alignItems: 'flex-start' }}>
        <SearchBox label={t('admin.users.search')} hint={t('admin.users.searchHint')} value={q} onChange={search} />
        <TextField
          select
          size="small"
          label={t('admin.users.statusFilter')}
          value={status}
          onChange={(event) => {
            setStatus(event.target.value as AdminUserStatus | typeof ANY);
            setPage(1);
          }}
          sx={{ minWidth: 160 }}
        >
          <MenuItem value={ANY}>{t('admin.users.anyStatus')}</MenuItem>
          {STATUSES.map((s) => (
            <MenuItem key={s} value={s}>
              {t(`admin.users.status.${s}`)}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      {list.error && <ApiErrorAlert error={list.error} />}
      {!list.data && !list.error && <Loading />}
      {list.data && (
        <ListFrame label={t('admin.menu.users')} page={page} pageSize={pageSize} total={list.data.total} onPage={setPage} onPageSize={(size) => (setPageSize(size), setPage(1))}>
          <Table size="small" aria-label={t('admin.menu.users')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('admin.users.columns.user')}</TableCell>
                <TableCell>{t('admin.users.columns.status')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('admin.users.columns.method')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('admin.users.columns.twoStep')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.data.items.length === 0 && <EmptyRow columns={4} text={q ? t('admin.list.noMatch') : t('admin.users.none')} />}
              {list.data.items.map((user) => (
                <TableRow key={user.id} hover>
                  <TableCell sx={{ maxWidth: 320 }}>
                    <Link component={RouterLink} to={`/admin/tenants/${encodeURIComponent(user.tenantId)}/users/${encodeURIComponent(user.id)}`} sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                      {user.email ?? user.phoneNumber ?? user.id}
                    </Link>
                    <Box sx={{ color: 'text.secondary', typography: 'body2', overflowWrap: 'anywhere' }}>{[user.name, user.email ? user.phoneNumber : null].filter(Boolean).join(' · ')}</Box>
                  </TableCell>
                  <TableCell>
                    <UserStatusChips user={user} />
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{registrationMethod(user.registrationMethod)}</TableCell>
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{user.twoStepMethod ? t(`admin.users.twoStepMethods.${user.twoStepMethod}`) : t('admin.users.twoStepOff')}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </ListFrame>
      )}
    </Box>
  );
}
