import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { toCamelCase } from '@passgate/contract/rules';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorAlert } from '../../../components/ApiErrorAlert.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { useAdmin } from '../admin-context.tsx';
import { FormSection, SaveBar, SwitchRow, TextInput } from '../components/form-parts.tsx';
import { PageHeading } from '../components/list-parts.tsx';
import { useAdminApi } from '../use-admin-api.ts';
import {
  NEW_TENANT,
  TENANT_SWITCHES,
  tenantBody,
  tenantFieldOf,
  tenantFormValues,
  validateTenantForm,
  type AdminTenant,
  type TenantFormField,
  type TenantFormValues,
  type TenantProblems,
  type TenantSwitch,
} from './tenant-form.ts';

/** /admin/tenants/new and /admin/tenants/:tenantId: every switch and rule of a tenant, each explained beside it. */
export function TenantEditPage() {
  const { tenantId } = useParams();
  const adminApi = useAdminApi();
  const tenant = useQuery({
    queryKey: ['admin', 'tenants', tenantId],
    enabled: Boolean(tenantId),
    queryFn: () => adminApi.get<AdminTenant>(`/tenants/${encodeURIComponent(tenantId ?? '')}`),
  });
  if (!tenantId) return <TenantForm tenant={null} />;
  if (tenant.error) return <ApiErrorAlert error={tenant.error} />;
  if (!tenant.data) return <Loading />;
  return <TenantForm key={tenant.data.id} tenant={tenant.data} />;
}

function TenantForm({ tenant }: { tenant: AdminTenant | null }) {
  const { t } = useTranslation();
  const adminApi = useAdminApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { me } = useAdmin();
  const creating = tenant === null;
  const [values, setValues] = useState<TenantFormValues>(() => (tenant ? tenantFormValues(tenant) : NEW_TENANT));
  const [problems, setProblems] = useState<TenantProblems>({});
  const [serverProblem, setServerProblem] = useState<{ field: TenantFormField | null; message: string } | null>(null);
  const [saved, setSaved] = useState(false);
  useDocumentTitle(`${creating ? t('admin.tenants.new') : tenant.name} · ${t('admin.title')}`);

  const set = <K extends TenantFormField>(key: K, value: TenantFormValues[K]) => {
    setSaved(false);
    setValues((previous) => ({ ...previous, [key]: value }));
  };

  const save = useMutation({
    mutationFn: () =>
      creating
        ? adminApi.post<AdminTenant>('/tenants', tenantBody(values, true))
        : adminApi.patch<AdminTenant>(`/tenants/${encodeURIComponent(tenant.id)}`, tenantBody(values, false)),
    onSuccess: (answer) => {
      void queryClient.invalidateQueries({ queryKey: ['admin', 'tenant-options'] });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'tenants', 'list'] });
      queryClient.setQueryData(['admin', 'tenants', answer.id], answer);
      if (creating) void navigate(`/admin/tenants/${encodeURIComponent(answer.id)}`, { replace: true });
      else setSaved(true);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400) {
        const [head = '', ...rest] = (error.field ?? '').split('.');
        setServerProblem({ field: error.field ? tenantFieldOf([toCamelCase(head), ...rest].join('.')) : null, message: error.message });
      }
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setServerProblem(null);
    const found = validateTenantForm(values, creating);
    setProblems(found);
    const first = Object.keys(found)[0];
    if (first) return document.getElementById(`tenant-${first}`)?.focus();
    save.mutate();
  };

  const problemText = (field: TenantFormField) => {
    const problem = problems[field];
    if (problem) return t(`admin.problems.${problem.kind}`, { min: problem.min, max: problem.max, value: '' });
    if (serverProblem?.field === field) return serverProblem.message;
    return null;
  };
  const text = (field: Exclude<TenantFormField, TenantSwitch>, extra: Record<string, unknown> = {}) => (
    <TextInput
      id={`tenant-${field}`}
      label={t(`admin.tenants.fields.${field}`)}
      value={values[field] as string}
      onChange={(value) => set(field, value as never)}
      error={problemText(field)}
      hint={t(`admin.tenants.hints.${field}`)}
      {...extra}
    />
  );
  const number = (field: Exclude<TenantFormField, TenantSwitch>) => text(field, { inputMode: 'numeric', slotProps: { htmlInput: { inputMode: 'numeric' } } });

  return (
    <Box sx={{ maxWidth: 860 }}>
      <PageHeading
        title={creating ? t('admin.tenants.new') : tenant.name}
        subtitle={creating ? t('admin.tenants.newSubtitle') : t('admin.tenants.idLine', { id: tenant.id })}
        actions={
          <Button component={RouterLink} to="/admin/tenants">
            {t('admin.tenants.backToList')}
          </Button>
        }
      />
      {creating && !me.operator && <Alert severity="warning">{t('admin.tenants.operatorOnly')}</Alert>}
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
        {serverProblem && !serverProblem.field && <Alert severity="error">{serverProblem.message}</Alert>}
        <FormSection id="tenant-general" title={t('admin.tenants.sections.general')}>
          {creating && text('id', { required: true, slotProps: { htmlInput: { spellCheck: false, autoCapitalize: 'none' } } })}
          {text('name', { required: true })}
          {text('brandName')}
          {text('termsUri', { type: 'url' })}
          {text('privacyUri', { type: 'url' })}
        </FormSection>

        <FormSection id="tenant-switches" title={t('admin.tenants.sections.switches')} description={t('admin.tenants.sections.switchesText')}>
          {TENANT_SWITCHES.map((key) => (
            <SwitchRow key={key} label={t(`admin.tenants.switches.${key}.label`)} description={t(`admin.tenants.switches.${key}.rule`)} checked={values[key]} onChange={(checked) => set(key, checked)} />
          ))}
        </FormSection>

        <FormSection id="tenant-password" title={t('admin.tenants.sections.password')} description={t('admin.tenants.sections.passwordText')}>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 }}>
            {number('minLength')}
            {number('uppercase')}
            {number('number')}
            {number('special')}
          </Box>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr 1fr' }, gap: 2 }}>
            {number('passwordMaxAgeDays')}
            {number('passwordWarningDays')}
            {number('passwordHistorySize')}
          </Box>
          {number('rememberBrowserDays')}
        </FormSection>

        <FormSection id="tenant-custom" title={t('admin.tenants.sections.custom')} description={t('admin.tenants.sections.customText')}>
          <SwitchRow label={t('admin.tenants.fields.customCheckbox')} description={t('admin.tenants.hints.customCheckbox')} checked={values.customCheckbox} onChange={(checked) => set('customCheckbox', checked)} />
          {values.customCheckbox && (
            <>
              {text('customName', { required: true })}
              <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 }}>
                {text('customNameVi')}
                {text('customNameEn')}
              </Box>
              {text('customTermUrl', { type: 'url' })}
              {text('customPolicyUrl', { type: 'url' })}
            </>
          )}
        </FormSection>

        <SaveBar label={creating ? t('admin.tenants.create') : save.isPending ? t('admin.saving') : t('admin.save')} pending={save.isPending} saved={saved} problemCount={Object.keys(problems).length} error={save.error} />
      </Box>
    </Box>
  );
}
