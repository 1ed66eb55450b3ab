import { useMemo, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { toCamelCase } from '@passgate/contract/rules';
import type { AdminClientAnswer, Tenant } from '@passgate/contract';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorAlert } from '../../../components/ApiErrorAlert.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { ClientLoginPreview } from '../preview/ClientLoginPreview.tsx';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { ColourInput, FormSection, SaveBar, SwitchRow, TextInput } from '../components/form-parts.tsx';
import { useAdminApi } from '../use-admin-api.ts';
import { CapabilitiesField } from './CapabilitiesField.tsx';
import { SecretDialog } from './SecretDialog.tsx';
import {
  AUTH_METHODS,
  GRANT_TYPES,
  clientBody,
  clientOfAnswer,
  formFieldOf,
  formValues,
  previewClient,
  validateClientForm,
  type AdminClient,
  type AuthMethod,
  type ClientFormField,
  type ClientFormProblems,
  type ClientFormValues,
  type ThemeValues,
} from './client-form.ts';

export const clientQueryKey = (tenantId: string, clientId: string) => ['admin', 'tenants', tenantId, 'clients', clientId] as const;
export const tenantQueryKey = (tenantId: string) => ['admin', 'tenants', tenantId] as const;

/** /admin/tenants/:tenantId/clients/:clientId: every setting of a client, with the live preview of its Login screen. */
export function ClientEditPage() {
  const { tenantId = '', clientId = '' } = useParams();
  const adminApi = useAdminApi();
  const client = useQuery({
    queryKey: clientQueryKey(tenantId, clientId),
    queryFn: () => adminApi.get<AdminClient>(`/tenants/${encodeURIComponent(tenantId)}/clients/${encodeURIComponent(clientId)}`),
  });
  const tenant = useQuery({ queryKey: tenantQueryKey(tenantId), queryFn: () => adminApi.get<Tenant>(`/tenants/${encodeURIComponent(tenantId)}`) });
  if (client.error || tenant.error) return <ApiErrorAlert error={client.error ?? tenant.error} />;
  if (!client.data || !tenant.data) return <Loading />;
  return <ClientForm key={client.data.id} client={client.data} tenant={tenant.data} />;
}

function ClientForm({ client, tenant }: { client: AdminClient; tenant: Tenant }) {
  const { t } = useTranslation();
  const adminApi = useAdminApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const muiTheme = useTheme();
  const wide = useMediaQuery(muiTheme.breakpoints.up('lg'));
  const [values, setValues] = useState<ClientFormValues>(() => formValues(client));
  const [problems, setProblems] = useState<ClientFormProblems>({});
  const [serverProblem, setServerProblem] = useState<{ field: ClientFormField | null; message: string } | null>(null);
  const [saved, setSaved] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [confirmRotate, setConfirmRotate] = useState(false);
  const [newSecret, setNewSecret] = useState<string | null>(null);
  useDocumentTitle(`${client.name} · ${t('admin.title')}`);

  const path = `/tenants/${encodeURIComponent(client.tenantId)}/clients/${encodeURIComponent(client.id)}`;
  const set = <K extends keyof ClientFormValues>(key: K, value: ClientFormValues[K]) => {
    setSaved(false);
    setValues((previous) => ({ ...previous, [key]: value }));
  };
  const setTheme = (key: keyof ThemeValues, value: string) => {
    setSaved(false);
    setValues((previous) => ({ ...previous, theme: { ...previous.theme, [key]: value } }));
  };
  const preview = useMemo(() => previewClient(client.id, values, tenant), [client.id, values, tenant]);

  const save = useMutation({
    mutationFn: async () => {
      const body = clientBody(values);
      // A built-in client's addresses follow PUBLIC_URL: never sent.
      if (client.builtIn) {
        delete body.redirectUris;
        delete body.postLogoutRedirectUris;
      }
      return clientOfAnswer(await adminApi.patch<AdminClient | AdminClientAnswer>(path, body)).client;
    },
    onSuccess: (updated) => {
      setSaved(true);
      // Write-only secrets are not shown again once sent.
      setValues((previous) => ({ ...previous, facebookAppSecret: '', recaptchaSecret: '', removeFacebookAppSecret: false }));
      queryClient.setQueryData(clientQueryKey(client.tenantId, client.id), updated);
      void queryClient.invalidateQueries({ queryKey: ['admin', 'tenants', client.tenantId, 'clients', 'list'] });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400) {
        setServerProblem({ field: error.field ? formFieldOf(fieldPath(error.field)) : null, message: error.message });
      }
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setServerProblem(null);
    const found = validateClientForm(values, { facebookSecretSet: client.facebookAppSecretSet, recaptchaSecretSet: client.recaptcha.secretSet });
    setProblems(found);
    const first = Object.keys(found)[0];
    if (first) {
      document.getElementById(fieldId(first as ClientFormField))?.focus();
      return;
    }
    save.mutate();
  };

  const problemText = (field: ClientFormField): string | null => {
    const problem = problems[field];
    if (problem) return t(`admin.problems.${problem.kind}`, { value: problem.detail ?? '' });
    if (serverProblem?.field === field) return serverProblem.message;
    return null;
  };
  const text = (field: Exclude<ClientFormField, `theme.${string}`>, label: string, hint?: string, extra: Record<string, unknown> = {}) => (
    <TextInput
      id={fieldId(field)}
      label={label}
      value={values[field] as string}
      onChange={(value) => set(field, value as never)}
      error={problemText(field)}
      hint={hint}
      {...extra}
    />
  );
  const themeText = (key: keyof ThemeValues, label: string, hint?: string) => (
    <TextInput id={fieldId(`theme.${key}`)} label={label} value={values.theme[key]} onChange={(value) => setTheme(key, value)} error={problemText(`theme.${key}`)} hint={hint} />
  );

  const previewBlock = <ClientLoginPreview client={preview} />;

  return (
    <Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', gap: 1, mb: 3 }}>
        <Typography variant="h1" sx={{ flex: 1, minWidth: 200, overflowWrap: 'anywhere' }}>
          {client.name}
        </Typography>
        <Button component={RouterLink} to="/admin/clients">
          {t('admin.clients.backToList')}
        </Button>
      </Box>
      <Typography variant="body2" color="textSecondary" sx={{ mb: 3 }}>
        {t('admin.clients.idLine', { id: client.id, tenant: tenant.name })}
      </Typography>

      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 1fr) 400px' }, gap: 3, alignItems: 'start' }}>
        <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 3, minWidth: 0 }}>
          {serverProblem && !serverProblem.field && <Alert severity="error">{serverProblem.message}</Alert>}

          <FormSection id="client-general" title={t('admin.clients.sections.general')}>
            {text('name', t('admin.clients.fields.name'), t('admin.clients.hints.name'), { required: true })}
            {text('logoUri', t('admin.clients.fields.logoUri'), t('admin.clients.hints.logoUri'), { type: 'url' })}
            <TextInput
              select
              id={fieldId('defaultLocale')}
              label={t('admin.clients.fields.defaultLocale')}
              value={values.defaultLocale}
              onChange={(value) => set('defaultLocale', value as ClientFormValues['defaultLocale'])}
              hint={t('admin.clients.hints.defaultLocale')}
            >
              <MenuItem value="">{t('admin.clients.localeAuto')}</MenuItem>
              <MenuItem value="vi">Tiếng Việt</MenuItem>
              <MenuItem value="en">English</MenuItem>
            </TextInput>
          </FormSection>

          <FormSection id="client-theme" title={t('admin.clients.sections.theme')} description={t('admin.clients.sections.themeText')}>
            <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr 1fr' }, gap: 2 }}>
              <ColourInput id={fieldId('theme.primaryColor')} label={t('admin.clients.fields.primaryColor')} value={values.theme.primaryColor} onChange={(v) => setTheme('primaryColor', v)} error={problemText('theme.primaryColor')} />
              <ColourInput id={fieldId('theme.buttonColor')} label={t('admin.clients.fields.buttonColor')} value={values.theme.buttonColor} onChange={(v) => setTheme('buttonColor', v)} error={problemText('theme.buttonColor')} />
              <ColourInput id={fieldId('theme.backgroundColor')} label={t('admin.clients.fields.backgroundColor')} value={values.theme.backgroundColor} onChange={(v) => setTheme('backgroundColor', v)} error={problemText('theme.backgroundColor')} />
            </Box>
            <FormHelperText sx={{ mt: -1 }}>{t('admin.clients.hints.colours')}</FormHelperText>
            {themeText('backgroundImageUri', t('admin.clients.fields.backgroundImageUri'), t('admin.clients.hints.backgroundImageUri'))}
            {themeText('title', t('admin.clients.fields.title'), t('admin.clients.hints.title'))}
            {themeText('iconUri', t('admin.clients.fields.iconUri'), t('admin.clients.hints.iconUri'))}
            {themeText('hyperlink', t('admin.clients.fields.hyperlink'), t('admin.clients.hints.hyperlink'))}
            {themeText('hyperlinkedText', t('admin.clients.fields.hyperlinkedText'), t('admin.clients.hints.hyperlinkedText'))}
            <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 }}>
              {themeText('hyperlinkedTextVi', t('admin.clients.fields.hyperlinkedTextVi'))}
              {themeText('hyperlinkedTextEn', t('admin.clients.fields.hyperlinkedTextEn'))}
            </Box>
            {!wide && previewBlock}
          </FormSection>

          <FormSection id="client-addresses" title={t('admin.clients.sections.addresses')} description={t('admin.clients.sections.addressesText')}>
            {client.builtIn && <Alert severity="info">{t('admin.clients.builtIn')}</Alert>}
            {text('redirectUris', t('admin.clients.fields.redirectUris'), t('admin.clients.hints.redirectUris'), { multiline: true, minRows: 2, required: true, disabled: client.builtIn })}
            {text('postLogoutRedirectUris', t('admin.clients.fields.postLogoutRedirectUris'), t('admin.clients.hints.postLogoutRedirectUris'), { multiline: true, minRows: 2, disabled: client.builtIn })}
            {text('clientUri', t('admin.clients.fields.clientUri'), t('admin.clients.hints.clientUri'))}
            {text('initiateLoginUri', t('admin.clients.fields.initiateLoginUri'), t('admin.clients.hints.initiateLoginUri'))}
            {text('backchannelLogoutUri', t('admin.clients.fields.backchannelLogoutUri'), t('admin.clients.hints.backchannelLogoutUri'))}
            <SwitchRow
              label={t('admin.clients.fields.backchannelLogoutSessionRequired')}
              description={t('admin.clients.hints.backchannelLogoutSessionRequired')}
              checked={values.backchannelLogoutSessionRequired}
              onChange={(checked) => set('backchannelLogoutSessionRequired', checked)}
            />
          </FormSection>

          <FormSection id="client-token" title={t('admin.clients.sections.token')} description={t('admin.clients.sections.tokenText')}>
            <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
              <Typography component="legend" variant="subtitle2">
                {t('admin.clients.fields.grantTypes')}
              </Typography>
              <FormGroup>
                {GRANT_TYPES.map((grant) => (
                  <Box key={grant}>
                    <FormControlLabel
                      control={
                        <Checkbox
                          size="small"
                          checked={values.grantTypes.includes(grant)}
                          onChange={(event) => set('grantTypes', event.target.checked ? [...values.grantTypes, grant] : values.grantTypes.filter((g) => g !== grant))}
                        />
                      }
                      label={<code>{grant}</code>}
                    />
                    <FormHelperText sx={{ mt: -0.75, ml: 4 }}>{t(`admin.clients.grants.${grant}`)}</FormHelperText>
                  </Box>
                ))}
              </FormGroup>
              {problemText('grantTypes') && <FormHelperText error>{problemText('grantTypes')}</FormHelperText>}
            </Box>
            <TextInput
              select
              id={fieldId('tokenEndpointAuthMethod')}
              label={t('admin.clients.fields.tokenEndpointAuthMethod')}
              value={values.tokenEndpointAuthMethod}
              onChange={(value) => set('tokenEndpointAuthMethod', value as AuthMethod)}
              hint={t(`admin.clients.authMethods.${values.tokenEndpointAuthMethod}`)}
              error={problemText('tokenEndpointAuthMethod')}
            >
              {AUTH_METHODS.map((method) => (
                <MenuItem key={method} value={method}>
                  {method}
                </MenuItem>
              ))}
            </TextInput>
            {client.tokenEndpointAuthMethod !== 'none' && (
              <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2 }}>
                <Typography variant="body2" color="textSecondary" sx={{ flex: 1, minWidth: 200 }}>
                  {client.hasSecret ? t('admin.clients.secretSet') : t('admin.clients.secretMissing')}
                </Typography>
                <Button variant="outlined" onClick={() => setConfirmRotate(true)}>
                  {t('admin.clients.rotateSecret')}
                </Button>
              </Box>
            )}
          </FormSection>

          <FormSection id="client-capabilities" title={t('admin.clients.sections.capabilities')} description={t('admin.clients.sections.capabilitiesText')}>
            <CapabilitiesField value={values.permissions} onChange={(next) => set('permissions', next)} error={problemText('permissions')} />
          </FormSection>

          <FormSection id="client-social" title={t('admin.clients.sections.social')} description={t('admin.clients.sections.socialText')}>
            {text('googleAppId', t('admin.clients.fields.googleAppId'), t('admin.clients.hints.googleAppId'))}
            {text('facebookAppId', t('admin.clients.fields.facebookAppId'), t('admin.clients.hints.facebookAppId'))}
            {text('facebookAppSecret', t('admin.clients.fields.facebookAppSecret'), client.facebookAppSecretSet ? t('admin.clients.hints.secretKept') : t('admin.clients.hints.secretNone'), {
              type: 'password',
              autoComplete: 'new-password',
              disabled: values.removeFacebookAppSecret,
            })}
            {client.facebookAppSecretSet && (
              <FormControlLabel
                control={<Checkbox size="small" checked={values.removeFacebookAppSecret} onChange={(event) => set('removeFacebookAppSecret', event.target.checked)} />}
                label={t('admin.clients.removeFacebookSecret')}
              />
            )}
          </FormSection>

          <FormSection id="client-recaptcha" title={t('admin.clients.sections.recaptcha')}>
            <SwitchRow label={t('admin.clients.fields.recaptchaEnabled')} description={t('admin.clients.hints.recaptchaEnabled')} checked={values.recaptchaEnabled} onChange={(checked) => set('recaptchaEnabled', checked)} />
            {text('recaptchaSiteKey', t('admin.clients.fields.recaptchaSiteKey'))}
            {text('recaptchaSecret', t('admin.clients.fields.recaptchaSecret'), client.recaptcha.secretSet ? t('admin.clients.hints.secretKept') : t('admin.clients.hints.secretNone'), {
              type: 'password',
              autoComplete: 'new-password',
            })}
          </FormSection>

          <FormSection id="client-username" title={t('admin.clients.sections.username')} description={t('admin.clients.sections.usernameText')}>
            {text('emailDomains', t('admin.clients.fields.emailDomains'), t('admin.clients.hints.emailDomains'))}
            {text('emailRegex', t('admin.clients.fields.emailRegex'), t('admin.clients.hints.regex'), { slotProps: { htmlInput: { spellCheck: false } } })}
            {text('phoneRegex', t('admin.clients.fields.phoneRegex'), t('admin.clients.hints.regex'), { slotProps: { htmlInput: { spellCheck: false } } })}
          </FormSection>

          <FormSection id="client-terms" title={t('admin.clients.sections.terms')} description={t('admin.clients.sections.termsText')}>
            {text('brandName', t('admin.clients.fields.brandName'))}
            {text('termsUri', t('admin.clients.fields.termsUri'))}
            {text('privacyUri', t('admin.clients.fields.privacyUri'))}
          </FormSection>

          <SaveBar label={save.isPending ? t('admin.saving') : t('admin.save')} pending={save.isPending} saved={saved} problemCount={Object.keys(problems).length} error={save.error} />

          {!client.builtIn && (
            <FormSection id="client-danger" title={t('admin.clients.sections.danger')} description={t('admin.clients.sections.dangerText')}>
              <Box>
                <Button variant="outlined" color="error" onClick={() => setConfirmDelete(true)}>
                  {t('admin.clients.delete')}
                </Button>
              </Box>
            </FormSection>
          )}
        </Box>

        {/* minWidth 0: for the moment a window narrows before `wide` follows, the 1280 or 375 px frame must not widen the page. */}
        {wide && <Box sx={{ position: 'sticky', top: 88, minWidth: 0 }}>{previewBlock}</Box>}
      </Box>

      <ConfirmDialog
        open={confirmRotate}
        title={t('admin.clients.rotateTitle')}
        message={t('admin.clients.rotateMessage', { client: client.name })}
        confirmLabel={t('admin.clients.rotateSecret')}
        destructive
        onConfirm={async () => {
          const answer = clientOfAnswer(await adminApi.post<AdminClient | AdminClientAnswer>(`${path}/secret`));
          setNewSecret(answer.secret ?? '');
          void queryClient.invalidateQueries({ queryKey: ['admin', 'tenants', client.tenantId, 'clients', client.id] });
        }}
        onClose={() => setConfirmRotate(false)}
      />
      <SecretDialog secret={newSecret} onClose={() => setNewSecret(null)} />
      <ConfirmDialog
        open={confirmDelete}
        title={t('admin.clients.deleteTitle')}
        message={t('admin.clients.deleteMessage', { client: client.name, id: client.id })}
        confirmLabel={t('admin.clients.delete')}
        destructive
        typeToConfirm={client.id}
        onConfirm={async () => {
          await adminApi.delete<unknown>(path);
          queryClient.removeQueries({ queryKey: ['admin', 'tenants', client.tenantId, 'clients'] });
          void navigate('/admin/clients', { replace: true });
        }}
        onClose={() => setConfirmDelete(false)}
      />
    </Box>
  );
}

/**
 * The element id of a form field (for focus and labels). Its own prefix: `client-theme-title` is
 * also the id of the theme section's heading, which took the Title field's label away.
 */
export function fieldId(field: ClientFormField): string {
  return `client-field-${field.replaceAll('.', '-')}`;
}

/** The API names fields as the body sends them: snake_case at the top, nested keys as they are. */
function fieldPath(wire: string): string {
  const [head = '', ...rest] = wire.split('.');
  return [toCamelCase(head), ...rest].join('.');
}
