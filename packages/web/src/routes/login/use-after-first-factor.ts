import { useNavigate, useSearchParams } from 'react-router';
import type { RedirectOrMfaStep } from '@passgate/contract';
import { browser } from '../../lib/browser.ts';
import type { MfaState } from '../flow/flow-state.ts';
import { flowHref } from './login-options.ts';

/**
 * What every first factor (passwordless code, Google, Facebook, linking) leads to: the relying
 * party, or the 2-step screen when the account has it on. `username` is what that screen names.
 */
export function useAfterFirstFactor(challenge: string) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  return (answer: RedirectOrMfaStep, username: string) => {
    if ('redirectTo' in answer) {
      browser.assign(answer.redirectTo);
      return;
    }
    const state: MfaState = { tokenType: answer.tokenType, mfaToken: answer.mfaToken, ...(answer.rememberBrowser === false ? { rememberBrowser: false } : {}), username, challenge };
    void navigate(flowHref('/login/mfa', params), { state });
  };
}
