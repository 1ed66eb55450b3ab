import { useState } from 'react';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AdminSignInStats } from '@passgate/contract';
import { ApiErrorAlert } from '../../../components/ApiErrorAlert.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { useAdmin } from '../admin-context.tsx';
import { PageHeading } from '../components/list-parts.tsx';
import { utcOffsetMinutes } from '../format.ts';
import { useAdminApi } from '../use-admin-api.ts';
import { visuallyHidden } from '../../../theme/visually-hidden.ts';

/** The scope 'every tenant' (operators). */
const ALL = '*';

const METHOD_COLOURS: Record<string, string> = {
  password: '#1F5FBF',
  passwordless: '#2E7D32',
  google: '#F9A825',
  facebook: '#5E35B1',
  device: '#00838F',
  other: '#8D6E63',
};

/** /admin/dashboard: sign-ins per day of the last 30 days by method, with failures and lockouts, for a tenant or (operators) all. */
export default function DashboardPage() {
  const { t, i18n } = useTranslation();
  const adminApi = useAdminApi();
  const { me, tenants, tenantId } = useAdmin();
  const [scope, setScope] = useState<string>(me.operator ? ALL : (tenantId ?? ''));
  useDocumentTitle(`${t('admin.menu.dashboard')} · ${t('admin.title')}`);
  const stats = useQuery({
    queryKey: ['admin', 'stats', scope],
    queryFn: () => adminApi.get<AdminSignInStats>('/stats/sign-ins', { tenant_id: scope === ALL ? undefined : scope, days: 30, utc_offset_minutes: utcOffsetMinutes() }),
  });
  const dayLabel = (date: string) => new Intl.DateTimeFormat(i18n.language === 'en' ? 'en-GB' : 'vi-VN', { day: 'numeric', month: 'numeric' }).format(new Date(`${date}T00:00:00`));
  const dayName = (date: string) => new Intl.DateTimeFormat(i18n.language === 'en' ? 'en-GB' : 'vi-VN', { dateStyle: 'full' }).format(new Date(`${date}T00:00:00`));
  const days = stats.data?.days ?? [];
  // With nothing to draw, an axis from 0 to 0 would label its only tick '0.00…': 0 to 1 instead.
  const emptyAxis = (values: number[]) => (values.every((value) => value === 0) ? { max: 1 } : {});
  const totals = days.reduce((sum, day) => ({ signIns: sum.signIns + day.total, failures: sum.failures + day.failures, lockouts: sum.lockouts + day.lockouts }), {
    signIns: 0,
    failures: 0,
    lockouts: 0,
  });

  return (
    <Box>
      <PageHeading
        title={t('admin.menu.dashboard')}
        subtitle={t('admin.dashboard.subtitle')}
        actions={
          <TextField select size="small" label={t('admin.dashboard.scope')} value={scope} onChange={(event) => setScope(event.target.value)} sx={{ minWidth: 200 }}>
            {me.operator && <MenuItem value={ALL}>{t('admin.dashboard.allTenants')}</MenuItem>}
            {tenants.map((tenant) => (
              <MenuItem key={tenant.id} value={tenant.id}>
                {tenant.name}
              </MenuItem>
            ))}
          </TextField>
        }
      />
      {stats.error && <ApiErrorAlert error={stats.error} />}
      {!stats.data && !stats.error && <Loading />}
      {stats.data && (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' }, gap: 2 }}>
            <Figure label={t('admin.dashboard.signIns')} value={totals.signIns} />
            <Figure label={t('admin.dashboard.failures')} value={totals.failures} />
            <Figure label={t('admin.dashboard.lockouts')} value={totals.lockouts} />
          </Box>
          <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
            <Typography variant="h2" component="h2" sx={{ px: 1, pt: 1 }}>
              {t('admin.dashboard.byMethod')}
            </Typography>
            {/* Drawn at once: bars growing from zero read as wrong numbers to anyone who looks (or screenshots) early. */}
            <BarChart
              skipAnimation
              height={320}
              xAxis={[{ scaleType: 'band', data: days.map((day) => dayLabel(day.date)) }]}
              series={stats.data.methods.map((method) => ({
                id: method,
                label: t(`admin.dashboard.methods.${method}`),
                data: days.map((day) => day.signIns[method]),
                stack: 'sign-ins',
                color: METHOD_COLOURS[method],
              }))}
              yAxis={[{ min: 0, tickMinStep: 1, ...emptyAxis(days.map((day) => day.total)) }]}
              margin={{ left: 0, right: 8 }}
            />
            <ChartTable
              caption={t('admin.dashboard.byMethod')}
              dayHeader={t('admin.dashboard.day')}
              rows={days.map((day) => ({ day: dayName(day.date), values: stats.data.methods.map((method) => day.signIns[method]) }))}
              columns={stats.data.methods.map((method) => t(`admin.dashboard.methods.${method}`))}
            />
          </Paper>
          <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
            <Typography variant="h2" component="h2" sx={{ px: 1, pt: 1 }}>
              {t('admin.dashboard.failuresAndLockouts')}
            </Typography>
            <LineChart
              skipAnimation
              height={260}
              xAxis={[{ scaleType: 'point', data: days.map((day) => dayLabel(day.date)) }]}
              series={[
                { id: 'failures', label: t('admin.dashboard.failures'), data: days.map((day) => day.failures), color: '#C62828' },
                { id: 'lockouts', label: t('admin.dashboard.lockouts'), data: days.map((day) => day.lockouts), color: '#6A1B9A' },
              ]}
              yAxis={[{ min: 0, tickMinStep: 1, ...emptyAxis(days.flatMap((day) => [day.failures, day.lockouts])) }]}
              margin={{ left: 0, right: 8 }}
            />
            <ChartTable
              caption={t('admin.dashboard.failuresAndLockouts')}
              dayHeader={t('admin.dashboard.day')}
              rows={days.map((day) => ({ day: dayName(day.date), values: [day.failures, day.lockouts] }))}
              columns={[t('admin.dashboard.failures'), t('admin.dashboard.lockouts')]}
            />
          </Paper>
        </Box>
      )}
    </Box>
  );
}

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="body2" color="textSecondary">
        {label}
      </Typography>
      <Typography sx={{ fontSize: '1.75rem', fontWeight: 700 }}>{value.toLocaleString()}</Typography>
    </Paper>
  );
}

/** A chart's numbers as a table, for screen readers: the chart itself is a picture to them. */
function ChartTable({ caption, dayHeader, columns, rows }: { caption: string; dayHeader: string; columns: string[]; rows: { day: string; values: number[] }[] }) {
  return (
    // The wrapper hides it: a table itself grows to its content whatever width it is given.
    <Box sx={visuallyHidden}>
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{dayHeader}</th>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.day}>
              <th scope="row">{row.day}</th>
              {row.values.map((value, at) => (
                <td key={columns[at]}>{value}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </Box>
  );
}
