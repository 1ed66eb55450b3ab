import type { z } from 'zod';

/** One thing wrong with an operator's input: the field (a dotted path such as `theme.primaryColor`) and why. */
export interface AdminInputProblem {
  field: string;
  message: string;
}

/**
 * Bad input to an administrative service (tenants, clients, users). Every problem names its field;
 * the command line turns each into one line naming the flag, and exits non-zero.
 */
export class AdminInputError extends Error {
  readonly problems: AdminInputProblem[];

  constructor(problems: AdminInputProblem[] | AdminInputProblem) {
    const list = Array.isArray(problems) ? problems : [problems];
    super(list.map((p) => `${p.field}: ${p.message}`).join('\n'));
    this.name = 'AdminInputError';
    this.problems = list;
  }

  static of(field: string, message: string): AdminInputError {
    return new AdminInputError({ field, message });
  }
}

/** Parses `input` with `schema`, or throws an AdminInputError listing every issue by its field path. */
export function parseAdminInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new AdminInputError(
    result.error.issues.map((issue) => ({
      field: issue.path.map(String).join('.') || '(input)',
      message: issue.message,
    })),
  );
}
