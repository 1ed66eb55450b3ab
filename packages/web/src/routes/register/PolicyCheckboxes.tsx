import { lazy, Suspense, useState } from 'react';
import { styled } from '@mui/material/styles';
import { Trans, useTranslation } from 'react-i18next';
import type { PublicClient } from '@passgate/contract';
import { CheckboxField } from '../../components/CheckboxField.tsx';
import { ExternalLink } from '../../components/TextLink.tsx';
import { localizedText } from '../../lib/localized-text.ts';

const PolicyDialog = lazy(() => import('./PolicyDialog.tsx'));

/** A button that looks like the links beside it (it opens the policy dialog). */
const LinkButton = styled('button')(({ theme }) => ({
  ...theme.typography.body2,
  display: 'inline',
  textAlign: 'left',
  padding: 0,
  border: 0,
  background: 'none',
  cursor: 'pointer',
  color: theme.palette.primary.main,
  fontWeight: 500,
  textDecoration: 'underline',
  textUnderlineOffset: 2,
  '&:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: 2 },
}));

const externalLink = (href: string) => <ExternalLink href={href} target="_blank" rel="noopener noreferrer" />;

/** The terms and privacy addresses: the client's own, else its tenant's. */
export function policyLinks(client: PublicClient): { termsUri: string | null; privacyUri: string | null } {
  return {
    termsUri: client.termsPrivacy.termsUri || client.tenant.termsUri || null,
    privacyUri: client.termsPrivacy.privacyUri || client.tenant.privacyUri || null,
  };
}

interface Props {
  client: PublicClient;
  policyAccepted: boolean;
  onPolicyChange: (checked: boolean) => void;
  customAccepted: boolean;
  onCustomChange: (checked: boolean) => void;
}

/**
 * The policy checkbox (its text links to the terms and privacy policy, else opens the embedded
 * policy dialog) and the tenant's own registration checkbox when it has one.
 */
export function PolicyCheckboxes({ client, policyAccepted, onPolicyChange, customAccepted, onCustomChange }: Props) {
  const { t, i18n } = useTranslation();
  const [dialog, setDialog] = useState<'never' | 'open' | 'closed'>('never');
  const { termsUri, privacyUri } = policyLinks(client);
  const custom = client.tenant.customRegisterCheckbox;

  let agreement;
  if (termsUri && privacyUri) {
    agreement = <Trans i18nKey="register.agreeTermsAndPrivacy" t={t} components={{ terms: externalLink(termsUri), privacy: externalLink(privacyUri) }} />;
  } else if (termsUri) {
    agreement = <Trans i18nKey="register.agreeTerms" t={t} components={{ terms: externalLink(termsUri) }} />;
  } else if (privacyUri) {
    agreement = <Trans i18nKey="register.agreePrivacy" t={t} components={{ privacy: externalLink(privacyUri) }} />;
  } else {
    agreement = <Trans i18nKey="register.agreePolicy" t={t} components={{ policy: <LinkButton type="button" aria-haspopup="dialog" onClick={() => setDialog('open')} /> }} />;
  }

  return (
    <>
      <CheckboxField id="register-policy" checked={policyAccepted} onChange={onPolicyChange} required>
        {agreement}
      </CheckboxField>
      {custom && (
        <CheckboxField id="register-custom" checked={customAccepted} onChange={onCustomChange} required>
          {localizedText(custom.name, custom.nameI18n, i18n.language)}
          {custom.termUrl && (
            <>
              {' · '}
              {externalLinkWithText(custom.termUrl, t('register.customTerms'))}
            </>
          )}
          {custom.policyUrl && (
            <>
              {' · '}
              {externalLinkWithText(custom.policyUrl, t('register.customPolicy'))}
            </>
          )}
        </CheckboxField>
      )}
      {dialog !== 'never' && (
        <Suspense fallback={null}>
          <PolicyDialog open={dialog === 'open'} onClose={() => setDialog('closed')} />
        </Suspense>
      )}
    </>
  );
}

function externalLinkWithText(href: string, text: string) {
  return (
    <ExternalLink href={href} target="_blank" rel="noopener noreferrer">
      {text}
    </ExternalLink>
  );
}
