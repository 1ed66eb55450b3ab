import type { CDPSession, Page } from '@playwright/test';

/** A credential as Chromium's WebAuthn domain reports it (ids and keys base64). */
export interface VirtualCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  privateKey: string;
  userHandle?: string;
  signCount: number;
}

/**
 * Chromium's virtual authenticator (CDP WebAuthn domain) standing in for the device's screen lock:
 * CTAP2, built in ('internal'), with resident keys and user verification that always succeeds. It
 * belongs to the page (tab) it was added to and keeps its credentials across navigations.
 */
export class VirtualAuthenticator {
  private constructor(
    readonly cdp: CDPSession,
    readonly authenticatorId: string,
  ) {}

  static async attach(page: Page): Promise<VirtualAuthenticator> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });
    return new VirtualAuthenticator(cdp, authenticatorId);
  }

  async credentials(): Promise<VirtualCredential[]> {
    const { credentials } = await this.cdp.send('WebAuthn.getCredentials', { authenticatorId: this.authenticatorId });
    return credentials as VirtualCredential[];
  }

  /** Puts a copy of another authenticator's credential here (the same key on a second device). */
  async add(credential: VirtualCredential): Promise<void> {
    await this.cdp.send('WebAuthn.addCredential', { authenticatorId: this.authenticatorId, credential });
  }

  /** Forgets every credential: this device can no longer answer for the account. */
  async clear(): Promise<void> {
    await this.cdp.send('WebAuthn.clearCredentials', { authenticatorId: this.authenticatorId });
  }
}
