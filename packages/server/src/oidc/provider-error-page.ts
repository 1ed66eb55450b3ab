import type { KoaContextWithOIDC } from 'oidc-provider';
import { escapeHtml } from '../lib/html.ts';

/**
 * The page shown when the provider itself refuses a request (an unknown client, a redirect URI that
 * is not registered…): plain, self-contained, no external resources, and never a redirect.
 */
export function renderProviderError(ctx: KoaContextWithOIDC, out: { error: string; error_description?: string }): void {
  ctx.type = 'html';
  ctx.body = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Passgate: ${escapeHtml(out.error)}</title></head>
<body><main><h1>Sign-in request refused</h1><p><strong>${escapeHtml(out.error)}</strong></p>${
    out.error_description ? `<p>${escapeHtml(out.error_description)}</p>` : ''
  }<p>Return to the application and try again.</p></main></body></html>`;
}
