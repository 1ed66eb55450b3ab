import { DEVICE_NAME_MAX } from '@passgate/contract/rules';

export type DeviceCodePurpose = 'activation' | 'deletion';

/** The route state of /user/webauthn/activation and /user/webauthn/deletion. */
export interface DeviceCodeState {
  deviceName: string;
  /** Where the code went (masked), when the page that sent it knows. */
  destination?: string;
}

/** The state the profile is opened with after a device changed: its 'My devices' card says so. */
export interface DeviceNoticeState {
  deviceNotice: 'activated' | 'deleted';
}

export const PROFILE_PATH = '/user/profile';

/** /user/webauthn/activation?challenge=…&webauthnCredentialId=… (or …/deletion). */
export function deviceCodePath(purpose: DeviceCodePurpose, challenge: string, webauthnCredentialId: string): string {
  const query = new URLSearchParams({ challenge, webauthnCredentialId });
  return `/user/webauthn/${purpose}?${query.toString()}`;
}

/** The device name of the route state, or null (SPEC.md section 4: the page then goes to Error 500). */
export function readDeviceCodeState(state: unknown): DeviceCodeState | null {
  if (typeof state !== 'object' || state === null) return null;
  const { deviceName, destination } = state as Record<string, unknown>;
  if (typeof deviceName !== 'string' || !deviceName) return null;
  return { deviceName, ...(typeof destination === 'string' && destination ? { destination } : {}) };
}

export function readDeviceNotice(state: unknown): DeviceNoticeState['deviceNotice'] | null {
  if (typeof state !== 'object' || state === null) return null;
  const notice = (state as Record<string, unknown>).deviceNotice;
  return notice === 'activated' || notice === 'deleted' ? notice : null;
}

/** SPEC.md section 5: the device name is required, at most 255 characters (after trimming). */
export function deviceNameProblem(name: string): 'required' | 'tooLong' | null {
  const trimmed = name.trim();
  if (!trimmed) return 'required';
  return trimmed.length > DEVICE_NAME_MAX ? 'tooLong' : null;
}

/** The media query of the device pages' wide layout (SPEC.md section 9: from 1024 px). */
export const WIDE = '@media (min-width: 1024px)';
