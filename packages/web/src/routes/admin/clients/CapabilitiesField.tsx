import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { capabilities } from '@passgate/contract/rules';
import type { Capability } from '@passgate/contract';

/** The capabilities of SPEC.md section 3 by what they concern, each with a sentence. */
type GroupKey = 'username' | 'password' | 'passwordless' | 'webauthn' | 'google' | 'facebook' | 'apple' | 'ibanking';

export const CAPABILITY_GROUPS: { key: GroupKey; items: Capability[] }[] = [
  { key: 'username', items: ['users:email:login', 'users:phoneNumber:login', 'users:email:register', 'users:phoneNumber:register'] },
  { key: 'password', items: ['password:reset'] },
  { key: 'passwordless', items: ['passwordless:login', 'passwordless:register'] },
  { key: 'webauthn', items: ['webauthn:login', 'webauthn:register'] },
  { key: 'google', items: ['social:google:login', 'social:google:register'] },
  { key: 'facebook', items: ['social:facebook:login', 'social:facebook:register'] },
  { key: 'apple', items: ['social:apple:login', 'social:apple:register'] },
  { key: 'ibanking', items: ['ibanking:login'] },
];

/** i18next reads ':' as its namespace separator: the keys use '_'. */
type Underscored<S extends string> = S extends `${infer Head}:${infer Tail}` ? `${Head}_${Underscored<Tail>}` : S;
export const capabilityKey = (capability: Capability) => capability.replaceAll(':', '_') as Underscored<Capability>;

/**
 * The client's capabilities as grouped checkboxes. A client that lists none has them all (SPEC.md
 * section 3): then every box is ticked, and unticking one lists the others.
 */
export function CapabilitiesField({ value, onChange, error }: { value: Capability[]; onChange: (next: Capability[]) => void; error?: string | null }) {
  const { t } = useTranslation();
  const all = value.length === 0;
  const has = (capability: Capability) => all || value.includes(capability);
  const toggle = (capability: Capability, on: boolean) => {
    const current = all ? [...capabilities] : value;
    const next = on ? [...current, capability] : current.filter((c) => c !== capability);
    onChange(capabilities.filter((c) => next.includes(c)));
  };
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Typography variant="body2" color={all ? 'primary' : 'text.secondary'}>
        {all ? t('admin.capabilities.allListed') : t('admin.capabilities.someListed', { count: value.length })}
      </Typography>
      {CAPABILITY_GROUPS.map((group) => (
        <Box key={group.key} component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
          <Typography component="legend" variant="subtitle2" sx={{ mb: 0.5 }}>
            {t(`admin.capabilities.groups.${group.key}`)}
          </Typography>
          {group.items.map((capability) => (
            <Box key={capability} sx={{ mb: 0.5 }}>
              <FormControlLabel
                // The last one stays: an empty list would mean every capability again.
                control={<Checkbox size="small" checked={has(capability)} disabled={!all && value.length === 1 && has(capability)} onChange={(event) => toggle(capability, event.target.checked)} />}
                label={
                  <span>
                    <Box component="code" sx={{ fontSize: '0.8125rem' }}>
                      {capability}
                    </Box>
                  </span>
                }
              />
              <FormHelperText sx={{ mt: -0.75, ml: 4 }}>{t(`admin.capabilities.items.${capabilityKey(capability)}`)}</FormHelperText>
            </Box>
          ))}
        </Box>
      ))}
      {!all && (
        <Box>
          <Button size="small" onClick={() => onChange([])}>
            {t('admin.capabilities.allowAll')}
          </Button>
        </Box>
      )}
      {error && <FormHelperText error>{error}</FormHelperText>}
    </Box>
  );
}
