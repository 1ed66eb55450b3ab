import { performance } from 'node:perf_hooks';
import { TestBrowser } from '../../test/browser.ts';
import { authorizationRequest, finishSignIn, type RelyingParty } from '../../test/relying-party.ts';
import type { BenchUser } from '../bench-users.ts';
import type { Sample } from '../stats.ts';

/**
 * One whole sign-in as a relying party and a browser make it: the authorization request up to
 * Passgate's login screen, the login call (argon2id), the redirects back and the code exchange
 * (openid-client, which also checks the ID token). A 503 at any step is overload turned away,
 * recorded apart from errors together with whether it said when to retry.
 */

export interface SignInTarget {
  url: string;
  rp: RelyingParty;
  users: BenchUser[];
}

export type Tokens = Awaited<ReturnType<typeof finishSignIn>>;

let turn = 0;

function shed(response: Response, dueAt: number, stepMs: number): Sample {
  return { outcome: 'shed', ms: performance.now() - dueAt, stepMs, noRetryAfter: !response.headers.get('retry-after') };
}

/** The HTTP status inside an openid-client error, if it carries one. */
function statusIn(error: unknown): { status?: number; response?: Response } {
  const e = error as { status?: unknown; response?: unknown; cause?: unknown };
  const response = e.response instanceof Response ? e.response : e.cause instanceof Response ? e.cause : undefined;
  const status = typeof e.status === 'number' ? e.status : response?.status;
  return { ...(status !== undefined ? { status } : {}), ...(response ? { response } : {}) };
}

export async function signInOnce(target: SignInTarget, dueAt: number, scope?: string): Promise<{ sample: Sample; tokens?: Tokens }> {
  const { url, rp, users } = target;
  const user = users[turn++ % users.length]!;
  const browser = new TestBrowser();
  const auth = await authorizationRequest(rp, scope ? { scope } : {});

  let stepStart = performance.now();
  const first = await browser.follow(auth.url, url);
  if (first.response.status === 503) return { sample: shed(first.response, dueAt, performance.now() - stepStart) };
  const login = new URL(first.url);
  const challenge = login.searchParams.get('challenge');
  if (login.pathname !== '/login' || !challenge) throw new Error(`the authorization request ended at ${first.response.status} ${login.pathname}`);

  stepStart = performance.now();
  const response = await browser.postJson(`${url}/api/v1/users/login`, { challenge, username: user.username, password: user.password, client_id: rp.clientId });
  const loginMs = performance.now() - stepStart;
  if (response.status === 503) return { sample: shed(response, dueAt, loginMs) };
  if (!response.ok) throw new Error(`login answered ${response.status}: ${(await response.text()).slice(0, 160)}`);
  const { redirectTo } = (await response.json()) as { redirectTo: string };

  stepStart = performance.now();
  try {
    const tokens = await finishSignIn(browser, url, rp, auth, redirectTo);
    return { sample: { outcome: 'ok', ms: performance.now() - dueAt, stepMs: loginMs }, tokens };
  } catch (error) {
    const { status, response: failed } = statusIn(error);
    if (status === 503 && failed) return { sample: shed(failed, dueAt, performance.now() - stepStart) };
    throw error;
  }
}

/** Where the bare provider's sign-in ceiling listens, and its one account. */
export interface BareSignInTarget {
  issuer: string;
  rp: RelyingParty;
  username: string;
  password: string;
}

/** The same walk against the bare provider (see bench/children/bare-provider.ts): its login is POST /login. */
export async function bareSignInOnce(target: BareSignInTarget, dueAt: number): Promise<Sample> {
  const { issuer, rp } = target;
  const browser = new TestBrowser();
  const auth = await authorizationRequest(rp);
  const first = await browser.follow(auth.url, issuer);
  if (new URL(first.url).pathname !== '/login') throw new Error(`the authorization request ended at ${first.response.status} ${first.url}`);
  const stepStart = performance.now();
  const response = await browser.postJson(`${issuer}/login`, { username: target.username, password: target.password });
  const loginMs = performance.now() - stepStart;
  if (!response.ok) throw new Error(`login answered ${response.status}: ${(await response.text()).slice(0, 160)}`);
  const { redirectTo } = (await response.json()) as { redirectTo: string };
  await finishSignIn(browser, issuer, rp, auth, redirectTo);
  return { outcome: 'ok', ms: performance.now() - dueAt, stepMs: loginMs };
}

/** Sign-ins for the token phases: `count` refresh and access tokens of the relying party `target.rp`. */
export async function tokensBySigningIn(target: SignInTarget, count: number): Promise<Tokens[]> {
  const all: Tokens[] = [];
  for (let i = 0; i < count; i += 1) {
    const { sample, tokens } = await signInOnce(target, performance.now(), 'openid offline_access profile email phone');
    if (!tokens?.refresh_token) throw new Error(`a sign-in for ${target.rp.clientId} gave no refresh token (${sample.outcome}${sample.error ? `: ${sample.error}` : ''})`);
    all.push(tokens);
  }
  return all;
}
