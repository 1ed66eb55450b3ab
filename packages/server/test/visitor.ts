import { noticesIdle } from '../src/features/known-browsers/notice-delivery.ts';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppContext } from '../src/context.ts';
import { resendCooldownKey, type CodePurpose } from '../src/features/codes/codes.service.ts';
import { TestBrowser } from './browser.ts';
import { createClientService } from '../src/features/clients/clients.service.ts';
import { createTenantService } from '../src/features/tenants/tenants.service.ts';

/** Helpers for the visitor-flow tests: calls, codes from the dev outbox, tenants and clients to test with. */

export interface Answer {
  status: number;
  body: any;
}

/**
 * An answer's parsed body without the error's `requestId`, which differs on every request: tests
 * compare answers to each other and to fixed envelopes (plugins/request-id.test.ts checks the id).
 */
export function parseAnswerBody(text: string): any {
  if (!text) return undefined;
  const body = JSON.parse(text);
  if (body && typeof body === 'object' && body.error && typeof body.error === 'object') delete body.error.requestId;
  return body;
}

/**
 * POSTs JSON (the body as given: snake_case) with an Accept-Language header, vi by default, from
 * the browser that started the sign-in the body's `challenge` (or `oauth_challenge`) names, as the
 * SPA would; a body without one, or a challenge no test browser started, goes without cookies.
 * Attack tests post from another `TestBrowser` explicitly.
 */
export async function postJson(baseUrl: string, path: string, body: unknown, language = 'vi'): Promise<Answer> {
  const named = typeof body === 'object' && body !== null ? (body as { challenge?: unknown; oauth_challenge?: unknown }) : {};
  const challenge = typeof named.oauth_challenge === 'string' ? named.oauth_challenge : named.challenge;
  const browser = (typeof challenge === 'string' && TestBrowser.byChallenge.get(challenge)) || new TestBrowser();
  const response = await browser.fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-language': language },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: parseAnswerBody(await response.text()) };
}

/** The newest message sent to `to`, as the dev outbox keeps it. */
export async function lastMessage(ctx: AppContext, to: string) {
  const [item] = (await ctx.messaging.outbox?.list({ to, limit: 1 })) ?? [];
  return item;
}

export async function messageCount(ctx: AppContext, to: string): Promise<number> {
  return ((await ctx.messaging.outbox?.list({ to, limit: 1000 })) ?? []).length;
}

/**
 * The code of the newest message sent to `to` that carries one: a notice that carries none (a new
 * sign-in, sent in the background after a sign-in from another test browser) may have come since.
 */
export async function lastCode(ctx: AppContext, to: string): Promise<string> {
  const items = (await ctx.messaging.outbox?.list({ to, limit: 20 })) ?? [];
  const item = items.find((message) => message.code);
  if (!item?.code) throw new Error(`no code was sent to ${to}`);
  return item.code;
}

/** Lets the next code for this username be sent at once (the 60 s cooldown is what other tests check). */
export async function endCooldown(ctx: AppContext, tenantId: string, purpose: CodePurpose, destination: string): Promise<void> {
  await ctx.rateLimits.codeResend.delete(resendCooldownKey(ctx.keys, { tenantId, purpose, destination }));
}

/** A wrong code that is surely not `code`. */
export const otherCode = (code: string): string => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

export async function createTenant(ctx: AppContext, settings: Record<string, unknown> & { id: string }) {
  return createTenantService({ db: ctx.db }).create({ name: settings.id, ...settings });
}

/** A public client of `tenantId` whose redirect URI is the /demo callback of `baseUrl`. */
export async function createClient(ctx: AppContext, baseUrl: string, settings: Record<string, unknown> & { id: string; tenantId: string }) {
  return createClientService({ db: ctx.db, keys: ctx.keys }).create({
    name: settings.id,
    tokenEndpointAuthMethod: 'none',
    redirectUris: [`${baseUrl}/demo/callback`],
    ...settings,
  });
}

export async function userRow(ctx: AppContext, tenantId: string, username: string) {
  return ctx.users.findByUsername(tenantId, username);
}

export async function auditTypes(ctx: AppContext, userId: string): Promise<string[]> {
  // A sign-in's new-browser check writes its record after the answer: wait for it, so lists are whole.
  await noticesIdle(ctx);
  const rows = await ctx.db.selectFrom('audit_events').select('type').where('user_id', '=', userId).orderBy('created_at').execute();
  return rows.map((r) => r.type);
}

export interface FakeSiteVerify {
  url: string;
  /** Every verification request received: the form fields. */
  requests: Record<string, string>[];
  close(): Promise<void>;
}

/** A local stand-in for reCAPTCHA's siteverify: accepts the token 'good-token' and nothing else. */
export async function startFakeSiteVerify(): Promise<FakeSiteVerify> {
  const requests: Record<string, string>[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      requests.push(form);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(form.response === 'good-token' ? { success: true, hostname: 'localhost' } : { success: false, 'error-codes': ['invalid-input-response'] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/recaptcha/api/siteverify`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
