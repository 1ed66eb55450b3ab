import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import MenuItem from '@mui/material/MenuItem';
import DownloadIcon from '@mui/icons-material/DownloadOutlined';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AdminAuditList } from '@passgate/contract';
import { ApiErrorAlert } from '../../../components/ApiErrorAlert.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { useAuth } from '../../account/auth-context.tsx';
import { useAdmin } from '../admin-context.tsx';
import { EmptyRow, ListFrame, PageHeading } from '../components/list-parts.tsx';
import { formatTime } from '../format.ts';
import { adminApiUrl, useAdminApi } from '../use-admin-api.ts';

interface Filters {
  tenant_id: string;
  type: string;
  user_id: string;
  client_id: string;
  from: string;
  to: string;
}

/** The tenant filter 'every tenant' (operators). */
const ALL = '*';
const NO_FILTERS: Filters = { tenant_id: '', type: '', user_id: '', client_id: '', from: '', to: '' };
const EVENT_TYPE = /^[a-z_]+\.[a-z_]+$/;
/** A user's or an admin's e-mail address: broken at its hyphens and dots where it must, not letter by letter. */
const ACCOUNT_CELL = { minWidth: 160, maxWidth: 260, overflowWrap: 'break-word' } as const;

/** The filters as the API takes them ('every tenant' is no tenant filter). */
function query(filters: Filters): Record<string, string> {
  return { ...filters, tenant_id: filters.tenant_id === ALL ? '' : filters.tenant_id };
}

/** /admin/audit: the audit log filtered by tenant, type, user, client and days, and the same as CSV. */
export function AuditPage() {
  const { t, i18n } = useTranslation();
  const adminApi = useAdminApi();
  const { accessToken } = useAuth();
  const { me, tenants, tenantId } = useAdmin();
  // Tenant admins always look at a tenant of theirs; operators may look at all.
  const [draft, setDraft] = useState<Filters>({ ...NO_FILTERS, tenant_id: me.operator ? ALL : (tenantId ?? '') });
  const [filters, setFilters] = useState<Filters>(draft);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(50);
  const [download, setDownload] = useState<unknown>(null);
  useDocumentTitle(`${t('admin.menu.audit')} · ${t('admin.title')}`);
  const typeInvalid = draft.type.trim() !== '' && !EVENT_TYPE.test(draft.type.trim());
  // Filtered to one tenant, every row would say the same tenant: the column gives its room to the others.
  const tenantColumn = filters.tenant_id === ALL || filters.tenant_id === '';
  const columns = tenantColumn ? 7 : 6;

  const list = useQuery({
    queryKey: ['admin', 'audit', filters, page, pageSize],
    placeholderData: keepPreviousData,
    queryFn: () => adminApi.get<AdminAuditList>('/audit', { ...query(filters), page, page_size: pageSize }),
  });

  const apply = () => {
    if (typeInvalid) return;
    setFilters({ ...draft, type: draft.type.trim(), user_id: draft.user_id.trim(), client_id: draft.client_id.trim() });
    setPage(1);
  };

  /** The CSV needs the bearer token, so it is fetched and handed to the browser as a file. */
  const exportCsv = async () => {
    setDownload(null);
    try {
      const response = await fetch(adminApiUrl(runtimeConfig().apiUrl, '/audit.csv', query(filters)), { headers: { Authorization: `Bearer ${accessToken}` } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = `passgate-audit-${new Date().toISOString().slice(0, 10)}.csv`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (error) {
      setDownload(error);
    }
  };

  const field = (key: keyof Filters, extra: Record<string, unknown> = {}) => (
    <TextField
      size="small"
      label={t(`admin.audit.filters.${key}`)}
      value={draft[key]}
      onChange={(event) => setDraft((previous) => ({ ...previous, [key]: event.target.value }))}
      sx={{ minWidth: 0 }}
      {...extra}
    />
  );

  return (
    <Box>
      <PageHeading
        title={t('admin.menu.audit')}
        subtitle={t('admin.audit.subtitle')}
        actions={
          <Button variant="outlined" startIcon={<DownloadIcon />} onClick={() => void exportCsv()}>
            {t('admin.audit.exportCsv')}
          </Button>
        }
      />
      {download != null && <ApiErrorAlert error={download} />}
      <Box
        component="form"
        onSubmit={(event) => {
          event.preventDefault();
          apply();
        }}
        // A grid, so that a filter left alone on its row keeps the width of the others.
        sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(4, minmax(0, 1fr))' }, gap: 2, mb: 2, alignItems: 'start' }}
      >
        {field('tenant_id', {
          select: true,
          children: [
            ...(me.operator ? [<MenuItem key={ALL} value={ALL}>{t('admin.audit.allTenants')}</MenuItem>] : []),
            ...tenants.map((tenant) => (
              <MenuItem key={tenant.id} value={tenant.id}>
                {tenant.name}
              </MenuItem>
            )),
          ],
        })}
        {field('type', { placeholder: 'login.failure', error: typeInvalid, helperText: typeInvalid ? t('admin.audit.typeHint') : undefined })}
        {field('user_id')}
        {field('client_id')}
        {field('from', { type: 'date', slotProps: { inputLabel: { shrink: true } } })}
        {field('to', { type: 'date', slotProps: { inputLabel: { shrink: true } } })}
        <Button type="submit" variant="contained" sx={{ justifySelf: 'start', alignSelf: 'center' }}>
          {t('admin.audit.apply')}
        </Button>
      </Box>
      {list.error && <ApiErrorAlert error={list.error} />}
      {!list.data && !list.error && <Loading />}
      {list.data && (
        <ListFrame label={t('admin.menu.audit')} page={page} pageSize={pageSize} total={list.data.total} onPage={setPage} onPageSize={(size) => (setPageSize(size), setPage(1))}>
          <Table size="small" aria-label={t('admin.menu.audit')} sx={{ minWidth: 760 }}>
            <TableHead>
              <TableRow>
                <TableCell>{t('admin.audit.columns.time')}</TableCell>
                <TableCell>{t('admin.audit.columns.type')}</TableCell>
                {tenantColumn && <TableCell>{t('admin.audit.columns.tenant')}</TableCell>}
                <TableCell>{t('admin.audit.columns.user')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('admin.audit.columns.client')}</TableCell>
                <TableCell>{t('admin.audit.columns.by')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', xl: 'table-cell' } }}>{t('admin.audit.columns.ip')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.data.items.length === 0 && <EmptyRow columns={columns} text={t('admin.audit.none')} />}
              {list.data.items.map((event) => (
                <TableRow key={event.id}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTime(event.createdAt, i18n.language)}</TableCell>
                  <TableCell>
                    <code>{event.type}</code>
                  </TableCell>
                  {tenantColumn && <TableCell>{event.tenantId ?? '—'}</TableCell>}
                  <TableCell sx={ACCOUNT_CELL} title={event.userId ?? undefined}>
                    {event.userLabel ?? event.userId ?? '—'}
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{event.clientId ?? '—'}</TableCell>
                  <TableCell sx={ACCOUNT_CELL}>
                    {event.details?.by === 'admin' ? t('admin.audit.adminActor', { id: event.actorLabel ?? String(event.details.actorUserId ?? '') }) : String(event.details?.by ?? '—')}
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', xl: 'table-cell' } }}>{event.ip ?? '—'}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </ListFrame>
      )}
    </Box>
  );
}
