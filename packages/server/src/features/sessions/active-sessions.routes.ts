import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { activeSessionsSchema, errorEnvelopeSchema, sessionIdParamsSchema, sessionsSignedOutSchema } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { acceptedToken } from '../../plugins/account-auth.ts';
import { signedIn } from '../account/signed-in.ts';
import { visitorMeta } from '../login-flow/visitor-input.ts';
import { createActiveSessionsService } from './active-sessions.service.ts';
import { openPlaceLookup } from './geoip.ts';
import { createSessionActivityQueries } from './session-activity.queries.ts';

const errors = { 401: errorEnvelopeSchema };
const bearer = [{ bearerAuth: [] }];

/**
 * The provider session the request's access token was issued in (the token carries its uid), read
 * after the signed-in hook has accepted the token.
 */
function currentSessionUid(request: FastifyRequest): string | undefined {
  return acceptedToken(request).sessionUid;
}

/** 'Where you're signed in' on the Security page: the user's provider sessions, and signing them out. */
export async function activeSessionsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const auth = signedIn(ctx);
  const place = ctx.config.geoipDb ? await openPlaceLookup(ctx.config.geoipDb) : undefined;
  const sessions = createActiveSessionsService({ ...ctx, place });
  const activity = createSessionActivityQueries(ctx.db);

  api.get('/api/v1/me/sessions', {
    schema: {
      tags: ['account'],
      summary: "The signed-in user's sessions: where they are signed in",
      description:
        'Each live provider session of the user: browser and OS (from its user agent), the address it signed in or was last active from, ' +
        '`place` (only when the server has a local GeoIP database), sign-in time, last activity, the applications signed in through it, ' +
        'and `current` for the session of this very request. The current session comes first, then the most recently active. ' +
        '`id` is opaque (a keyed digest), for DELETE /api/v1/me/sessions/{id}.',
      security: bearer,
      response: { 200: activeSessionsSchema, ...errors },
    },
    onRequest: auth.authenticate,
    handler: async (request) => {
      const user = auth.user(request);
      const current = currentSessionUid(request);
      // Using the account area is activity of its session too.
      if (current) await activity.touch(current);
      const meta = visitorMeta(request);
      return { items: await sessions.list(user, current, meta.locale) };
    },
  });

  api.delete('/api/v1/me/sessions/:id', {
    schema: {
      tags: ['account'],
      summary: 'Sign out one of the signed-in user’s other sessions',
      description:
        'Ends the provider session (its cookie signs in no more), revokes the grants of the applications signed in through it with their access and refresh tokens, ' +
        'sends a back-channel logout token to each of those applications that registered a URI, and audits session.ended. Answers 204 with no body. ' +
        '1404 (404, field id) no such session of this user (another user’s id included: nothing changes); ' +
        '1110 (400, field id) the session of this very request (sign out through the provider’s end-session endpoint instead).',
      security: bearer,
      params: sessionIdParamsSchema,
      response: { 204: z.null().describe('Signed out'), 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, ...errors },
    },
    onRequest: auth.authenticate,
    handler: async (request, reply) => {
      const user = auth.user(request);
      await sessions.signOut(user, request.params.id, currentSessionUid(request), visitorMeta(request));
      return reply.status(204).send(null);
    },
  });

  api.post('/api/v1/me/sessions/sign-out-others', {
    schema: {
      tags: ['account'],
      summary: 'Sign out every session of the signed-in user but this one',
      description: 'Each other session ends as with DELETE /api/v1/me/sessions/{id}. Answers how many were signed out (0 when there were none).',
      security: bearer,
      response: { 200: sessionsSignedOutSchema, ...errors },
    },
    onRequest: auth.authenticate,
    handler: async (request) => {
      const user = auth.user(request);
      return { signedOut: await sessions.signOutOthers(user, currentSessionUid(request), visitorMeta(request)) };
    },
  });
}
