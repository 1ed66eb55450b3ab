import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  challengeParamsSchema,
  clientParamsSchema,
  errorEnvelopeSchema,
  loginRequestInfoSchema,
  loginRequestQuerySchema,
  loginResponseSchema,
  logoutDecisionBodySchema,
  logoutRequestInfoSchema,
  passwordLoginBodySchema,
  publicClientSchema,
  redirectSchema,
} from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { createLoginFlowService, type RequestMeta } from './login-flow.service.ts';
import { logoutContinuationPage } from './logout-continuation-page.ts';
import { parseCookieHeader } from '../../lib/cookies.ts';
import { BROWSER_KEY_COOKIE } from '../known-browsers/new-browser-notice.ts';

export function requestMeta(request: FastifyRequest): RequestMeta {
  const browserKey = parseCookieHeader(request.headers.cookie).get(BROWSER_KEY_COOKIE);
  return { ip: request.ip, userAgent: request.headers['user-agent'], browser: request.browser, browserKey };
}

const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema, 429: errorEnvelopeSchema };

/** The sign-in and sign-out steps of the hosted login flow (SPEC.md section 7, login flow). */
export async function loginFlowRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = createLoginFlowService(ctx);
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/v1/requests/login/:challenge', {
    schema: {
      tags: ['login flow'],
      summary: 'Read the sign-in request behind a challenge: the client, its theme, its tenant and whether to skip',
      description:
        'Only for the browser that started the sign-in (it holds the provider\'s interaction cookie), else 1026. The verify-device page of a second device adds ' +
        '`authn_challenge`, the pending device sign-in request of this sign-in, and reads it without `skip`.',
      params: challengeParamsSchema,
      querystring: loginRequestQuerySchema,
      response: { 200: loginRequestInfoSchema, ...errors },
    },
    handler: (request) => service.getLoginRequest(request.params.challenge, requestMeta(request), request.query.authn_challenge),
  });

  api.get('/api/v1/clients/:clientId', {
    schema: {
      tags: ['login flow'],
      summary: "A client's public face (name, theme, languages, the way back to it), for a screen whose sign-in request has expired or finished",
      description:
        'What GET /api/v1/requests/login/{challenge} answers as `client`, without a request: the login screens carry `client_id` in their address so that ' +
        'a stale or bookmarked page can still show the client and lead back to it (`homeUri`). 1061 for an unknown client.',
      params: clientParamsSchema,
      response: { 200: publicClientSchema, ...errors },
    },
    handler: (request) => service.getPublicClient(request.params.clientId),
  });

  api.post('/api/v1/users/login', {
    schema: {
      tags: ['login flow'],
      summary: 'Sign in with e-mail or phone number and password',
      body: passwordLoginBodySchema,
      response: { 200: loginResponseSchema, ...errors },
    },
    handler: (request) => service.passwordLogin(request.body, requestMeta(request)),
  });

  api.get('/api/v1/requests/logout/:challenge', {
    schema: {
      tags: ['login flow'],
      summary: 'Read a logout request waiting for the user to confirm',
      params: challengeParamsSchema,
      response: { 200: logoutRequestInfoSchema, ...errors },
    },
    handler: (request) => service.getLogoutRequest(request.params.challenge, requestMeta(request)),
  });

  api.post('/api/v1/requests/logout/:challenge', {
    schema: {
      tags: ['login flow'],
      summary: 'Confirm (Log out) or cancel (Back) a logout request',
      params: challengeParamsSchema,
      body: logoutDecisionBodySchema,
      response: { 200: redirectSchema, ...errors },
    },
    handler: (request) => service.decideLogout(request.params.challenge, request.body.confirmed, requestMeta(request)),
  });

  api.get('/api/v1/requests/logout/:challenge/continue', {
    schema: {
      tags: ['login flow'],
      summary: 'Finish a confirmed logout: a page that posts the confirmation to the provider from this browser',
      params: challengeParamsSchema,
    },
    handler: async (request, reply) => {
      const form = await service.logoutContinuation(request.params.challenge, requestMeta(request));
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(logoutContinuationPage(form));
    },
  });

  // The one script the continuation page runs; served from here so the CSP needs no inline script.
  app.get('/api/v1/requests/logout-submit.js', { schema: { hide: true } }, (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(
      "document.addEventListener('DOMContentLoaded', function () { document.forms[0].submit(); });\n",
    ),
  );
}
