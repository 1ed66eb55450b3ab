import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AVATAR_MAX_BYTES, ErrorCode, avatarUploadBodySchema, errorEnvelopeSchema, profileSchema } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../plugins/errors.ts';
import { randomToken } from '../../lib/ids.ts';
import { inTransaction } from '../tenants/tenants.service.ts';
import { AVATAR_CONTENT_TYPE, decodeUpload, normaliseAvatar, tooLarge } from './avatar-image.ts';
import { createAvatarQueries } from './avatars.queries.ts';
import { toProfile } from './profile.ts';
import type { SignedIn } from './signed-in.ts';

/** The longest `image` a body may carry: AVATAR_MAX_BYTES in base64, plus room for a data: URL prefix. */
const MAX_IMAGE_CHARS = Math.ceil((AVATAR_MAX_BYTES * 4) / 3) + 100;
/** The avatar call's body limit: the image plus the rest of the JSON; a larger body is 413 (1072) before it is read. */
export const AVATAR_BODY_LIMIT = MAX_IMAGE_CHARS + 1024;

/** Avatars are immutable: a new upload gets a new key, so a key's image may be cached for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** POST /api/v1/me/avatar and the public GET /api/v1/avatars/{key} (SPEC.md section 7). */
export function avatarRoutes(app: FastifyInstance, ctx: AppContext, auth: SignedIn): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post('/api/v1/me/avatar', {
    bodyLimit: AVATAR_BODY_LIMIT,
    schema: {
      tags: ['account'],
      summary: "Replace the signed-in user's avatar",
      description:
        '`image`: base64, or a `data:image/…;base64,` URL; `mime_type` declares the type of plain base64. The image is decoded for real and ' +
        'stored as a 256×256 WebP (centred, cropped to cover, metadata removed); the answer is the profile with the new `avatarUrl`. ' +
        `1070 (400) not valid base64, not a decodable JPEG/PNG/WebP/GIF, or over 40 megapixels; 1071 (400) a declared type that is not image/jpeg, image/png, image/webp or image/gif; ` +
        `1072 (413) more than ${AVATAR_MAX_BYTES} bytes decoded.`,
      security: [{ bearerAuth: [] }],
      body: avatarUploadBodySchema,
      response: { 200: profileSchema, 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 413: errorEnvelopeSchema },
    },
    onRequest: auth.authenticate,
    // Before validation: an image string over the schema's length is 'too large' (1072), not 'invalid field'.
    preValidation: async (request) => {
      const body = request.body as { image?: unknown } | undefined;
      if (typeof body?.image === 'string' && body.image.length > MAX_IMAGE_CHARS) throw tooLarge();
    },
    handler: async (request) => {
      const user = auth.user(request);
      const data = await normaliseAvatar(decodeUpload(request.body.image, request.body.mimeType));
      const avatar = { key: randomToken(24), user_id: user.id, content_type: AVATAR_CONTENT_TYPE, data, created_at: Date.now() };
      await inTransaction(ctx.db, (trx) => createAvatarQueries(trx).replace(avatar));
      const updated = await ctx.users.findById(user.id);
      if (!updated) throw new ApiError(ErrorCode.NotAuthenticated, 401);
      return toProfile(updated, ctx.config.publicUrl);
    },
  });

  api.get('/api/v1/avatars/:key', {
    schema: {
      tags: ['account'],
      summary: 'An avatar image (public; the URL is the profile\'s avatarUrl and the ID token\'s picture)',
      description: 'Answers the image with its content type, cacheable for a year (a new upload gets a new URL); 404 (1404) for an unknown key.',
      params: z.object({ key: z.string().min(1).max(64) }),
      response: { 200: z.any().describe('The image, as its content type says (image/webp)'), 404: errorEnvelopeSchema },
    },
    handler: async (request, reply) => {
      const avatar = await createAvatarQueries(ctx.db).find(request.params.key);
      if (!avatar) throw new ApiError(ErrorCode.NotFound, 404, undefined, 'No such avatar');
      return reply
        .header('content-type', avatar.content_type)
        .header('cache-control', IMMUTABLE)
        // Relying parties on other sites show the `picture` of their users.
        .header('cross-origin-resource-policy', 'cross-origin')
        .send(avatar.data);
    },
  });
}
