/**
 * A module (or anything costly) loaded on first use and kept. Rarely used heavy modules (image
 * processing, QR codes, WebAuthn, SMTP) would otherwise take tens of megabytes of every process
 * that never needs them. A load that fails is tried again next time.
 */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
