import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { WebauthnCredential } from '@passgate/contract';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { deviceCodePath, type DeviceCodePurpose, type DeviceCodeState } from './device-state.ts';
import { useDeviceApi } from './use-webauthn-api.ts';

/**
 * 'Activate' on an inactive device, or a confirmed 'Delete': POST /api/v2/get-challenge sends the
 * code, then the activation (or deletion) page opens with the challenge, the id and the name.
 */
export function useDeviceChallenge() {
  const api = useDeviceApi();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async ({ device, purpose }: { device: WebauthnCredential; purpose: DeviceCodePurpose }) => {
      const sent = await api.codeChallenge({
        challengeType: purpose === 'activation' ? 'ACTIVATION_WEBAUTHN' : 'DELETION_WEBAUTHN',
        clientId: runtimeConfig().clientId,
        webauthnCredentialId: device.id,
      });
      return { sent, device, purpose };
    },
    onSuccess: ({ sent, device, purpose }) => {
      const state: DeviceCodeState = { deviceName: device.deviceName, destination: sent.destination };
      void navigate(deviceCodePath(purpose, sent.challenge, device.id), { state });
    },
  });
}
