/**
 * Leaving the single-page app for another URL (the provider's resume URL, a relying party).
 * Kept behind one object so tests can watch the navigation jsdom cannot perform.
 */
export const browser = {
  assign(url: string): void {
    window.location.assign(url);
  },
  supportsPublicKeyCredential(): boolean {
    return typeof window.PublicKeyCredential !== 'undefined';
  },
};
