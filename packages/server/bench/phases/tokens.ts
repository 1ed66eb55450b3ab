import { performance } from 'node:perf_hooks';
import type { Operation } from '../load.ts';
import type { Sample } from '../stats.ts';

/**
 * What relying parties do between sign-ins: refresh grants at the token endpoint and userinfo
 * calls, as plain HTTP (no client library work in the way). The same code drives Passgate and the
 * bare oidc-provider, so the two refresh rates differ only by what the servers do.
 */

export interface TokenClient {
  tokenUrl: string;
  clientId: string;
  /** client_secret_basic when given; a public client sends client_id in the body. */
  secret?: string;
}

/** One refresh-token chain: always the newest refresh token, since public clients' rotate. */
export interface Chain {
  refreshToken: string;
  accessToken?: string;
}

function shed(response: Response, dueAt: number): Sample {
  return { outcome: 'shed', ms: performance.now() - dueAt, noRetryAfter: !response.headers.get('retry-after') };
}

async function failure(response: Response, dueAt: number, what: string): Promise<Sample> {
  const text = await response.text().catch(() => '');
  return { outcome: 'error', ms: performance.now() - dueAt, error: `${what} answered ${response.status}: ${text.slice(0, 160)}` };
}

/** Worker i refreshes chain i, one grant at a time, as a relying party with that token would. */
export function refreshOperation(client: TokenClient, chains: Chain[]): Operation {
  const basic = client.secret
    ? `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.secret)}`).toString('base64')}`
    : undefined;
  return async (worker, dueAt) => {
    const chain = chains[worker % chains.length]!;
    const body = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: chain.refreshToken });
    if (!basic) body.set('client_id', client.clientId);
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    if (basic) headers.authorization = basic;
    const response = await fetch(client.tokenUrl, { method: 'POST', headers, body });
    if (response.status === 503) {
      await response.arrayBuffer();
      return shed(response, dueAt);
    }
    if (!response.ok) return failure(response, dueAt, 'refresh grant');
    const tokens = (await response.json()) as { refresh_token?: string; access_token?: string };
    if (!tokens.access_token) return { outcome: 'error', ms: performance.now() - dueAt, error: 'refresh grant gave no access token' };
    if (tokens.refresh_token) chain.refreshToken = tokens.refresh_token;
    chain.accessToken = tokens.access_token;
    return { outcome: 'ok', ms: performance.now() - dueAt };
  };
}

export function userinfoOperation(userinfoUrl: string, chains: Chain[]): Operation {
  return async (worker, dueAt) => {
    const chain = chains[worker % chains.length]!;
    const response = await fetch(userinfoUrl, { headers: { authorization: `Bearer ${chain.accessToken ?? ''}`, accept: 'application/json' } });
    if (response.status === 503) {
      await response.arrayBuffer();
      return shed(response, dueAt);
    }
    if (!response.ok) return failure(response, dueAt, 'userinfo');
    const claims = (await response.json()) as { sub?: string };
    if (!claims.sub) return { outcome: 'error', ms: performance.now() - dueAt, error: 'userinfo gave no sub' };
    return { outcome: 'ok', ms: performance.now() - dueAt };
  };
}
