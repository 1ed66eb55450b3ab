import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorAlert } from '../../../components/ApiErrorAlert.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { FormSection, TextInput } from '../components/form-parts.tsx';
import { PageHeading } from '../components/list-parts.tsx';
import { useAdminApi } from '../use-admin-api.ts';
import type { AdminClientAnswer } from '@passgate/contract';
import { AUTH_METHODS, clientOfAnswer, redirectUriProblem, type AdminClient, type AuthMethod } from './client-form.ts';
import { SecretDialog } from './SecretDialog.tsx';

const CLIENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

type Field = 'id' | 'name' | 'redirectUris';

/** /admin/tenants/:tenantId/clients/new: what a client needs to exist; the rest is set on its page. */
export function ClientCreatePage() {
  const { t } = useTranslation();
  const { tenantId = '' } = useParams();
  const adminApi = useAdminApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [redirectUris, setRedirectUris] = useState('');
  const [method, setMethod] = useState<AuthMethod>('client_secret_basic');
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});
  const [created, setCreated] = useState<{ client: AdminClient; secret: string } | null>(null);
  useDocumentTitle(`${t('admin.clients.new')} · ${t('admin.title')}`);

  const uris = redirectUris
    .split(/[\n,]/)
    .map((uri) => uri.trim())
    .filter(Boolean);
  const editPath = (clientId: string) => `/admin/tenants/${encodeURIComponent(tenantId)}/clients/${encodeURIComponent(clientId)}`;

  const create = useMutation({
    mutationFn: () =>
      adminApi.post<AdminClient | AdminClientAnswer>(`/tenants/${encodeURIComponent(tenantId)}/clients`, {
        id: id.trim(),
        name: name.trim(),
        redirectUris: uris,
        tokenEndpointAuthMethod: method,
      }),
    onSuccess: (answer) => {
      void queryClient.invalidateQueries({ queryKey: ['admin', 'tenants', tenantId, 'clients', 'list'] });
      const { client, secret } = clientOfAnswer(answer);
      if (secret) setCreated({ client, secret });
      else void navigate(editPath(client.id));
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400 && error.field) {
        const field = error.field.startsWith('redirect') ? 'redirectUris' : error.field === 'name' ? 'name' : 'id';
        setProblems({ [field]: error.message });
      }
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Partial<Record<Field, string>> = {};
    if (!CLIENT_ID_PATTERN.test(id.trim())) found.id = t('admin.clients.hints.id');
    if (!name.trim()) found.name = t('admin.problems.required');
    if (uris.length === 0) found.redirectUris = t('admin.problems.required');
    const bad = uris.map((uri) => ({ uri, problem: redirectUriProblem(uri) })).find((entry) => entry.problem);
    if (bad) found.redirectUris = t(`admin.problems.${bad.problem === 'fragment' ? 'fragment' : 'invalidUrl'}`, { value: bad.uri });
    setProblems(found);
    const first = (Object.keys(found) as Field[])[0];
    if (first) return document.getElementById(`new-client-${first}`)?.focus();
    create.mutate();
  };

  return (
    <Box sx={{ maxWidth: 720 }}>
      <PageHeading title={t('admin.clients.new')} subtitle={t('admin.clients.newSubtitle', { tenant: tenantId })} />
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
        <FormSection title={t('admin.clients.sections.general')}>
          <TextInput id="new-client-id" label={t('admin.clients.fields.id')} value={id} onChange={setId} error={problems.id} hint={t('admin.clients.hints.id')} required slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'none' } }} />
          <TextInput id="new-client-name" label={t('admin.clients.fields.name')} value={name} onChange={setName} error={problems.name} hint={t('admin.clients.hints.name')} required />
          <TextInput
            id="new-client-redirectUris"
            label={t('admin.clients.fields.redirectUris')}
            value={redirectUris}
            onChange={setRedirectUris}
            error={problems.redirectUris}
            hint={t('admin.clients.hints.redirectUris')}
            multiline
            minRows={2}
            required
          />
          <TextInput select id="new-client-method" label={t('admin.clients.fields.tokenEndpointAuthMethod')} value={method} onChange={(value) => setMethod(value as AuthMethod)} hint={t(`admin.clients.authMethods.${method}`)}>
            {AUTH_METHODS.map((m) => (
              <MenuItem key={m} value={m}>
                {m}
              </MenuItem>
            ))}
          </TextInput>
          {method !== 'none' && <Alert severity="info">{t('admin.clients.secretWillShow')}</Alert>}
        </FormSection>
        {create.error && !(create.error instanceof ApiError && create.error.status === 400 && create.error.field) && <ApiErrorAlert error={create.error} />}
        <Box sx={{ display: 'flex', gap: 2 }}>
          <Button type="submit" variant="contained" size="large" disabled={create.isPending}>
            {t('admin.clients.create')}
          </Button>
          <Button component={RouterLink} to="/admin/clients">
            {t('admin.cancel')}
          </Button>
        </Box>
      </Box>
      <SecretDialog
        secret={created?.secret ?? null}
        onClose={() => {
          const client = created?.client;
          setCreated(null);
          if (client) void navigate(editPath(client.id));
        }}
      />
    </Box>
  );
}
