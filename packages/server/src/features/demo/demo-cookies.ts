import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerKeys } from '../../lib/server-keys.ts';
import { parseCookieHeader } from '../../lib/cookies.ts';

/**
 * Small signed cookies for the demo relying party, scoped to /demo: the value is base64url JSON
 * plus an HMAC from the server key, so the browser can hold it but not change it.
 */
export interface DemoCookies {
  read<T>(request: FastifyRequest, name: string): T | undefined;
  /** The Set-Cookie header value for `value` (undefined: delete the cookie). */
  serialize(name: string, value: unknown, maxAgeSeconds: number): string;
  clear(name: string): string;
  set(reply: FastifyReply, cookies: string[]): void;
}

export function createDemoCookies(keys: ServerKeys, secure: boolean): DemoCookies {
  const purpose = (name: string) => `demo-cookie:${name}`;
  const attributes = `Path=/demo; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
  return {
    read<T>(request: FastifyRequest, name: string): T | undefined {
      const raw = parseCookieHeader(request.headers.cookie).get(name);
      if (!raw) return undefined;
      const dot = raw.lastIndexOf('.');
      if (dot <= 0) return undefined;
      const payload = raw.slice(0, dot);
      if (!keys.hmacEquals(purpose(name), payload, raw.slice(dot + 1))) return undefined;
      try {
        return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as T;
      } catch {
        return undefined;
      }
    },
    serialize(name, value, maxAgeSeconds) {
      const payload = Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
      return `${name}=${payload}.${keys.hmac(purpose(name), payload)}; Max-Age=${maxAgeSeconds}; ${attributes}`;
    },
    clear(name) {
      return `${name}=; Max-Age=0; ${attributes}`;
    },
    set(reply, cookies) {
      if (cookies.length > 0) reply.header('set-cookie', cookies);
    },
  };
}
