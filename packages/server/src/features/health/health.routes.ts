import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../../context.ts';
import { RETRY_AFTER_SECONDS } from '../../lib/dependency-errors.ts';
import { bounded, CheckFailure, checkDatabase, checkRedis, type CheckResult } from './health.checks.ts';

export interface HealthOptions {
  ctx: AppContext;
  /** How long each dependency may take to answer before the probe calls it down. */
  checkTimeoutMs?: number;
}

export interface Readiness {
  ready: boolean;
  checks: { database: CheckResult; redis: CheckResult };
}

/**
 * Probes for a process manager or load balancer (DESIGN.md section 11), without authentication.
 * Logged at warn only: one info line per probe every few seconds would bury the requests that
 * matter. Left out of the OpenAPI document, which describes the API for its clients; the README
 * describes them for operators.
 */
export async function healthRoutes(app: FastifyInstance, { ctx, checkTimeoutMs = 1000 }: HealthOptions): Promise<void> {
  const readiness = createReadiness(ctx, checkTimeoutMs);
  const routeOptions = { logLevel: 'warn', schema: { hide: true } } as const;

  // The process answers: nothing else is asked, so a dependency outage never gets the process restarted.
  app.get('/health/live', routeOptions, async () => ({ status: 'ok' }));

  const ready = async (_request: unknown, reply: FastifyReply) => {
    const { ready: isReady, checks } = await readiness();
    if (isReady) return { status: 'ready', checks };
    return reply.status(503).header('retry-after', String(RETRY_AFTER_SECONDS)).send({ status: 'not ready', checks });
  };
  app.get('/health/ready', routeOptions, ready);
  // The first probe path, still what the end-to-end runner waits on.
  app.get('/healthz', routeOptions, ready);
}

/**
 * One round of checks shared by every probe that arrives while it runs (several probers, a burst),
 * so probes never queue up work on a struggling dependency. A change of state is logged once, with
 * the detail the unauthenticated answer leaves out.
 */
function createReadiness(ctx: AppContext, timeoutMs: number): () => Promise<Readiness> {
  let inFlight: Promise<Readiness> | undefined;
  let lastFailures = '{}';

  async function run(): Promise<Readiness> {
    const details: Record<string, string> = {};
    const attempt = async (name: string, check: (() => Promise<void>) | undefined): Promise<CheckResult> => {
      if (!check) return 'not configured';
      try {
        return await bounded(check, timeoutMs);
      } catch (error) {
        const failure = error instanceof CheckFailure ? error : new CheckFailure('unreachable', String(error));
        details[name] = failure.detail ?? failure.reason;
        return failure.reason;
      }
    };
    const { redis } = ctx;
    const [database, redisResult] = await Promise.all([
      attempt('database', () => checkDatabase(ctx.db, ctx.config.databaseUrl)),
      attempt('redis', redis ? () => checkRedis(redis) : undefined),
    ]);
    const failures = JSON.stringify(details);
    if (failures !== lastFailures) {
      if (Object.keys(details).length > 0) ctx.log.warn({ checks: details }, 'not ready: a dependency check failed');
      else ctx.log.info('ready again: every dependency check passes');
      lastFailures = failures;
    }
    return { ready: Object.keys(details).length === 0, checks: { database, redis: redisResult } };
  }

  return () => {
    inFlight ??= run().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
}
