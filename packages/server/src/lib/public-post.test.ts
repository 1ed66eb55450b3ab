import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { PublicFetchRefused } from './public-fetch.ts';
import { publicPost } from './public-post.ts';

/** The POST of a logout token follows the public-fetch rules: never inside, unless the host is allowed. */
describe('publicPost', () => {
  const options = () => ({ signal: AbortSignal.timeout(2_000) });

  it('refuses internal addresses, written as literals or behind a name, before anything is sent', async () => {
    let received = 0;
    const server = createServer((request, response) => {
      received += 1;
      if (request.url === '/moved') response.writeHead(302, { location: '/logout' });
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      await expect(publicPost(`http://127.0.0.1:${port}/logout`, 'logout_token=x', options())).rejects.toEqual(new PublicFetchRefused('internal_address'));
      const rebinding = async () => [{ address: '127.0.0.1', family: 4 }];
      await expect(publicPost(`http://rp.example:${port}/logout`, 'logout_token=x', { ...options(), resolve: rebinding })).rejects.toEqual(new PublicFetchRefused('internal_address'));
      await expect(publicPost(`http://user:pw@rp.example/logout`, 'logout_token=x', options())).rejects.toEqual(new PublicFetchRefused('credentials_in_url'));
      expect(received).toBe(0);

      // The tests' allowance opens exactly the host it names; a redirect is answered, never followed.
      expect(await publicPost(`http://127.0.0.1:${port}/logout`, 'logout_token=x', { ...options(), allowPrivateHosts: ['127.0.0.1'] })).toEqual({ status: 200 });
      expect(received).toBe(1);
      expect(await publicPost(`http://127.0.0.1:${port}/moved`, 'logout_token=x', { ...options(), allowPrivateHosts: ['127.0.0.1'] })).toEqual({ status: 302 });
      expect(received).toBe(2);
    } finally {
      server.close();
    }
  });
});
