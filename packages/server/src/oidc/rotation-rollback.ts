import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';

/**
 * A rotating refresh token (a public client's, or any once past 70% of its life) is marked used and
 * its successor saved in the database before the new access token is stored, in Redis when
 * REDIS_URL is set. When that store fails (Redis away: 503), the client gets no tokens and keeps
 * the one it holds; presented again, a used refresh token is a reuse, and the provider revokes the
 * whole grant: a Redis blip would sign the person out of the application. So when the grant request
 * fails after the rotation, it is undone before the answer leaves: the presented token is unused
 * again and the successor nobody received is deleted. No tokens left the server, so nothing issued
 * is lost, and a racing reuse has already revoked the grant (nothing to undo then).
 */
export function rollBackFailedRotations({ provider, db, log }: { provider: Provider; db: Db; log: Logger }): void {
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.status < 500) return;
    const entities = (ctx as Partial<KoaContextWithOIDC>).oidc?.entities;
    const rotated = entities?.RotatedRefreshToken;
    if (!rotated?.jti) return;
    const successor = entities?.RefreshToken;
    try {
      if (successor?.jti && successor.jti !== rotated.jti) {
        await db.deleteFrom('oidc_payloads').where('model', '=', 'RefreshToken').where('id', '=', successor.jti).execute();
      }
      await db.updateTable('oidc_payloads').set({ consumed_at: null }).where('model', '=', 'RefreshToken').where('id', '=', rotated.jti).execute();
    } catch (error) {
      log.warn({ dependencyError: error instanceof Error ? error.message : String(error) }, 'a refresh failed after its token rotated, and the rotation could not be undone: that refresh token is spent');
    }
  });
}
