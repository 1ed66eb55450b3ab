import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The time one request may spend on the database, all its statements together. Each statement
 * already has its own timeout (statement_timeout, and the read timeout a second longer for a
 * silent server), but a database that answers, only slowly (a saturated server, a congested
 * link), answers every statement in time: a sign-in's dozen statements then took 40 s and a
 * registration's nearly a minute, past a proxy's timeout and the 18 s a stop gives requests in
 * flight. With a budget, the request's statements share the read timeout: the one that would
 * outlast it is given only what is left, and once it is spent the next one fails at once, as a
 * dependency failure (503, Retry-After, code 1294).
 *
 * Work a request starts in the background (a security notice) runs outside it (`withoutBudget`).
 */
const budgets = new AsyncLocalStorage<DatabaseBudget>();

/** The message of the failure of a statement asked for after the request's budget was spent. */
export const BUDGET_SPENT_MESSAGE = "the request's time for the database (DATABASE_STATEMENT_TIMEOUT_MS plus 1 s) is spent";

export interface DatabaseBudget {
  deadline: number;
}

/** A budget of `ms` from now, for `within`. */
export function databaseBudget(ms: number): DatabaseBudget {
  return { deadline: Date.now() + ms };
}

/** Runs `work` (and what it starts) within `budget`. */
export function within<T>(budget: DatabaseBudget, work: () => T): T {
  return budgets.run(budget, work);
}

/** Runs `work` (and what it starts) with no budget: background work the request does not wait for. */
export function withoutBudget<T>(work: () => T): T {
  return budgets.exit(work);
}

/** Milliseconds left of the current request's budget (0 or less: spent), or undefined outside one. */
export function databaseBudgetLeft(): number | undefined {
  const budget = budgets.getStore();
  return budget ? budget.deadline - Date.now() : undefined;
}

export function budgetSpentError(): Error {
  return new Error(BUDGET_SPENT_MESSAGE);
}
