import { useCallback, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
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
import { TENANT_SWITCHES, type AdminTenant } from './tenant-form.ts';

/** /admin/tenants: every tenant (operators) or the admin's own, with the switches that are on. */
export function TenantsPage() {
  const { t } = useTranslation();
  const adminApi = useAdminApi();
  const { me } = useAdmin();
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  useDocumentTitle(`${t('admin.menu.tenants')} · ${t('admin.title')}`);
  const list = useQuery({
    queryKey: ['admin', 'tenants', 'list', { q, page, pageSize }],
    placeholderData: keepPreviousData,
    queryFn: () => adminApi.get<Page<AdminTenant>>('/tenants', { q, page, page_size: pageSize }),
  });
  const search = useCallback((value: string) => {
    setQ(value);
    setPage(1);
  }, []);

  return (
    <Box>
      <PageHeading
        title={t('admin.menu.tenants')}
        subtitle={me.operator ? t('admin.tenants.subtitleOperator') : t('admin.tenants.subtitleTenantAdmin')}
        actions={
          me.operator && (
            <Button variant="contained" startIcon={<AddIcon />} component={RouterLink} to="/admin/tenants/new">
              {t('admin.tenants.new')}
            </Button>
          )
        }
      />
      <Box sx={{ mb: 2 }}>
        <SearchBox label={t('admin.tenants.search')} value={q} onChange={search} />
      </Box>
      {list.error && <ApiErrorAlert error={list.error} />}
      {!list.data && !list.error && <Loading />}
      {list.data && (
        <ListFrame label={t('admin.menu.tenants')} page={page} pageSize={pageSize} total={list.data.total} onPage={setPage} onPageSize={(size) => (setPageSize(size), setPage(1))}>
          <Table size="small" aria-label={t('admin.menu.tenants')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('admin.tenants.columns.name')}</TableCell>
                <TableCell>{t('admin.tenants.columns.id')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('admin.tenants.columns.switches')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.data.items.length === 0 && <EmptyRow columns={3} text={t('admin.list.noMatch')} />}
              {list.data.items.map((tenant) => (
                <TableRow key={tenant.id} hover>
                  <TableCell>
                    <Link component={RouterLink} to={`/admin/tenants/${encodeURIComponent(tenant.id)}`} sx={{ fontWeight: 600 }}>
                      {tenant.name}
                    </Link>
                  </TableCell>
                  <TableCell>
                    <code>{tenant.id}</code>
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>
                    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                      {TENANT_SWITCHES.filter((key) => tenant[key]).map((key) => (
                        <Chip key={key} size="small" label={t(`admin.tenants.switches.${key}.short`)} />
                      ))}
                    </Box>
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
