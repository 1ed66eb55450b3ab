import { useCallback, useState } from 'react';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Box from '@mui/material/Box';
import AddIcon from '@mui/icons-material/Add';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { Page } from '@passgate/contract';
import { ApiErrorAlert } from '../../../components/ApiErrorAlert.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { useAdmin } from '../admin-context.tsx';
import { EmptyRow, ListFrame, PageHeading, SearchBox } from '../components/list-parts.tsx';
import { useAdminApi } from '../use-admin-api.ts';
import type { AdminClient } from './client-form.ts';

/** /admin/clients: the picked tenant's clients, searchable, with a way to add one. */
export function ClientsPage() {
  const { t } = useTranslation();
  const adminApi = useAdminApi();
  const { tenantId, tenants } = useAdmin();
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  useDocumentTitle(`${t('admin.menu.clients')} · ${t('admin.title')}`);
  const tenantName = tenants.find((tenant) => tenant.id === tenantId)?.name ?? tenantId;

  const list = useQuery({
    queryKey: ['admin', 'tenants', tenantId, 'clients', 'list', { q, page, pageSize }],
    enabled: Boolean(tenantId),
    placeholderData: keepPreviousData,
    queryFn: () => adminApi.get<Page<AdminClient>>(`/tenants/${encodeURIComponent(tenantId ?? '')}/clients`, { q, page, page_size: pageSize }),
  });
  const search = useCallback((value: string) => {
    setQ(value);
    setPage(1);
  }, []);

  if (!tenantId) return <PageHeading title={t('admin.menu.clients')} subtitle={t('admin.noTenant')} />;
  return (
    <Box>
      <PageHeading
        title={t('admin.menu.clients')}
        subtitle={t('admin.clients.subtitle', { tenant: tenantName })}
        actions={
          <Button variant="contained" startIcon={<AddIcon />} component={RouterLink} to={`/admin/tenants/${encodeURIComponent(tenantId)}/clients/new`}>
            {t('admin.clients.new')}
          </Button>
        }
      />
      <Box sx={{ mb: 2 }}>
        <SearchBox label={t('admin.clients.search')} value={q} onChange={search} />
      </Box>
      {list.error && <ApiErrorAlert error={list.error} />}
      {!list.data && !list.error && <Loading />}
      {list.data && (
        <ListFrame label={t('admin.menu.clients')} page={page} pageSize={pageSize} total={list.data.total} onPage={setPage} onPageSize={(size) => (setPageSize(size), setPage(1))}>
          <Table size="small" aria-label={t('admin.menu.clients')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('admin.clients.columns.name')}</TableCell>
                <TableCell>{t('admin.clients.columns.id')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('admin.clients.columns.authMethod')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('admin.clients.columns.redirectUris')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.data.items.length === 0 && <EmptyRow columns={4} text={q ? t('admin.list.noMatch') : t('admin.clients.none')} />}
              {list.data.items.map((client) => (
                <TableRow key={client.id} hover>
                  <TableCell>
                    <Link component={RouterLink} to={`/admin/tenants/${encodeURIComponent(client.tenantId)}/clients/${encodeURIComponent(client.id)}`} sx={{ fontWeight: 600 }}>
                      {client.name}
                    </Link>
                  </TableCell>
                  <TableCell>
                    <code>{client.id}</code>
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{client.tokenEndpointAuthMethod}</TableCell>
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' }, maxWidth: 320, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                    {client.redirectUris.join(', ')}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </ListFrame>
      )}
    </Box>
  );
}
