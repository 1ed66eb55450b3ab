import type { FastifyInstance, FastifyRequest } from 'fastify';
import { databaseBudget, within, type DatabaseBudget } from '../lib/database-budget.ts';

/**
 * Every request's statements share the statement timeout plus the read timeout's second
 * (lib/database-budget.ts), counted from its arrival. Registered first, so every later hook, the
 * provider (mounted by middie in onRequest) and the route run within it. Fastify reads a body
 * through the stream's callbacks, which come from outside that run, so the route's part is entered
 * again once the body is read (preValidation), as @fastify/request-context does.
 */
export function registerDatabaseBudget(app: FastifyInstance, statementTimeoutMs: number): void {
  if (statementTimeoutMs <= 0) return;
  const ofRequest = new WeakMap<FastifyRequest, DatabaseBudget>();
  app.addHook('onRequest', (request, _reply, done) => {
    const budget = databaseBudget(statementTimeoutMs + 1000);
    ofRequest.set(request, budget);
    within(budget, done);
  });
  app.addHook('preValidation', (request, _reply, done) => {
    const budget = ofRequest.get(request);
    if (budget) within(budget, done);
    else done();
  });
}
