/**
 * A listener that could not start, said in the names of the settings behind it: Node's own
 * 'listen EADDRINUSE: address already in use 0.0.0.0:3000' names no variable to change.
 */
export function listenFailure(error: unknown, where: { host: string; port: number; settings: string }): Error {
  const code = (error as { code?: unknown } | null)?.code;
  const reason =
    code === 'EADDRINUSE'
      ? 'another process is already listening there'
      : code === 'EADDRNOTAVAIL'
        ? 'the address is not one of this machine’s'
        : code === 'EACCES'
          ? 'this user may not listen on that port'
          : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
            ? 'the host name does not resolve'
            : undefined;
  if (!reason) return error instanceof Error ? error : new Error(String(error));
  return new Error(`cannot listen on ${where.host}:${where.port} (${where.settings}): ${reason}`, { cause: error });
}
