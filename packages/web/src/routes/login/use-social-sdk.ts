import { useEffect, useState } from 'react';
import type { SocialAuthorizer } from '@passgate/contract';
import { currentLanguage } from '../../i18n/i18n.ts';
import { loadSocialSdk, type SocialSdk } from '../../lib/social/sdk.ts';
import { usePreviewMode } from '../../lib/preview-mode.ts';

export type SocialSdkState = { status: 'loading' } | { status: 'ready'; sdk: SocialSdk } | { status: 'failed' };

/**
 * The provider's SDK for a shown button, loaded and initialised as the button mounts, so that the
 * click itself can open the popup at once (a popup needs the click's user gesture).
 */
export function useSocialSdk(authorizer: SocialAuthorizer, appId: string): SocialSdkState {
  const key = `${authorizer}:${appId}`;
  const [loaded, setLoaded] = useState<{ key: string; state: SocialSdkState } | null>(null);
  // The admin console's preview shows the button as it looks, never loading the provider's script.
  const preview = usePreviewMode();

  useEffect(() => {
    if (preview) return;
    let current = true;
    loadSocialSdk(authorizer, appId, currentLanguage()).then(
      (sdk) => current && setLoaded({ key, state: { status: 'ready', sdk } }),
      () => current && setLoaded({ key, state: { status: 'failed' } }),
    );
    return () => {
      current = false;
    };
  }, [authorizer, appId, key, preview]);

  if (preview) return PREVIEW_STATE;
  return loaded?.key === key ? loaded.state : { status: 'loading' };
}

const PREVIEW_STATE: SocialSdkState = { status: 'ready', sdk: { signIn: () => Promise.resolve(null) } };
