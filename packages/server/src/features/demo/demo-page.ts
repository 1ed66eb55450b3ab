import { escapeHtml } from '../../lib/html.ts';
import { devPage } from '../outbox/dev-page.ts';

export interface DemoClientInfo {
  id: string;
  label: string;
  description: string;
}

/** What came back from a sign-in, kept (signed) in a cookie for display. */
export interface DemoResult {
  client: string;
  idTokenClaims: Record<string, unknown>;
  userinfo: Record<string, unknown> | null;
  userinfoError?: string;
  scope: string | null;
  refreshTokenIssued: boolean;
  at: number;
  /** The language chosen for the sign-in, asked for again on the way out (ui_locales). */
  locale?: 'vi' | 'en';
}

export interface DemoPageModel {
  clients: DemoClientInfo[];
  result?: DemoResult;
  error?: { title: string; detail?: string };
  notice?: string;
  logoutUrl?: string;
}

const TIME_CLAIMS = new Set(['iat', 'exp', 'auth_time', 'nbf', 'updated_at']);

function formatValue(key: string, value: unknown): string {
  if (typeof value === 'number' && TIME_CLAIMS.has(key)) return `${value} (${new Date(value * 1000).toISOString()})`;
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

function claimsTable(caption: string, claims: Record<string, unknown>): string {
  const rows = Object.entries(claims)
    .map(([k, v]) => `<tr><th scope="row"><code>${escapeHtml(k)}</code></th><td>${escapeHtml(formatValue(k, v))}</td></tr>`)
    .join('\n');
  return `<table><caption class="muted">${escapeHtml(caption)}</caption><thead><tr><th scope="col">Claim</th><th scope="col">Value</th></tr></thead><tbody>
${rows}
</tbody></table>`;
}

function resultSection(result: DemoResult, clients: DemoClientInfo[], logoutUrl: string | undefined): string {
  const label = clients.find((c) => c.id === result.client)?.label ?? result.client;
  const who = result.userinfo?.name ?? result.idTokenClaims.name ?? result.idTokenClaims.email ?? result.idTokenClaims.sub;
  return `<section class="card" aria-labelledby="result-heading">
<h2 id="result-heading">Signed in to ${escapeHtml(label)} as ${escapeHtml(String(who))}</h2>
<p class="muted">Client <code>${escapeHtml(result.client)}</code>, scope <code>${escapeHtml(result.scope ?? '')}</code>, refresh token issued: ${result.refreshTokenIssued ? 'yes' : 'no'}, at ${escapeHtml(new Date(result.at).toISOString())}.</p>
${logoutUrl ? `<p><a class="button" href="${escapeHtml(logoutUrl)}">Log out</a></p>` : ''}
<h3>ID token claims</h3>
${claimsTable('Claims of the ID token', result.idTokenClaims)}
<h3>Userinfo response</h3>
${result.userinfo ? claimsTable('Claims from the userinfo endpoint', result.userinfo) : `<p class="card error">Userinfo failed: ${escapeHtml(result.userinfoError ?? 'unknown error')}</p>`}
<h3>JSON</h3>
<pre>${escapeHtml(JSON.stringify({ idToken: result.idTokenClaims, userinfo: result.userinfo }, null, 2))}</pre>
</section>`;
}

/** The demo relying party's only page: start a sign-in as either client and see what came back. */
export function demoPage(model: DemoPageModel): string {
  const buttons = model.clients
    .map((c) => `<p><button type="submit" name="client" value="${escapeHtml(c.id)}">Sign in to ${escapeHtml(c.label)}</button> <span class="muted">${escapeHtml(c.description)}</span></p>`)
    .join('\n');
  const error = model.error
    ? `<div class="card error" role="alert"><strong>${escapeHtml(model.error.title)}</strong>${model.error.detail ? `<p>${escapeHtml(model.error.detail)}</p>` : ''}</div>`
    : '';
  const notice = model.notice ? `<div class="card" role="status">${escapeHtml(model.notice)}</div>` : '';
  return devPage(
    'Passgate demo relying party',
    `<h1>Passgate demo relying party</h1>
<p class="muted">A small OpenID Connect client (authorization code with PKCE, <code>openid-client</code>) that signs in through this Passgate, as one of two seeded clients with different themes and capabilities. Development mode only.</p>
${error}${notice}
<form method="get" action="/demo/login" class="card">
<p><label for="locale">Language</label>
<select id="locale" name="locale">
<option value="">The client's default</option>
<option value="vi">Tiếng Việt (vi)</option>
<option value="en">English (en)</option>
</select></p>
<p><label><input type="checkbox" name="prompt" value="create"> Open the registration screen (<code>prompt=create</code>)</label></p>
${buttons}
</form>
${model.result ? resultSection(model.result, model.clients, model.logoutUrl) : ''}
<p><a href="/dev/outbox">Dev outbox</a> (e-mails and SMS) · <a href="/user/dashboard">Account area</a></p>`,
  );
}
