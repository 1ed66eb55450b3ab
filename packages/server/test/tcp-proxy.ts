import { createServer, Socket, type Server } from 'node:net';

/**
 * A TCP proxy in front of a server (PostgreSQL, Redis) that a test can cut (connections reset, new
 * ones refused), silence (connections accepted, nothing ever answered, as a partitioned or hung
 * server) and restore.
 */
export interface TcpProxy {
  port: number;
  cut(): void;
  silence(): void;
  /** Every chunk, both ways, on the connections open and new, arrives `ms` late (in order): a server that answers, slowly. */
  slow(ms: number): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(host: string, port: number): Promise<TcpProxy> {
  let mode: 'forward' | 'cut' | 'silent' = 'forward';
  let delayMs = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (mode === 'cut') return void client.destroy();
    if (mode === 'silent') return void client.pause();
    const upstream = new Socket();
    sockets.add(upstream);
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => undefined);
    client.on('close', () => upstream.destroy());
    upstream.connect(port, host, () => {
      relay(client, upstream);
      relay(upstream, client);
    });
  });
  // Written through rather than piped, so that a delay can be put on connections already open.
  const relay = (from: Socket, to: Socket) => {
    let last = 0;
    from.on('data', (chunk: Buffer) => {
      if (mode === 'silent') return;
      const due = Math.max(Date.now() + delayMs, last);
      last = due;
      if (due <= Date.now()) to.write(chunk);
      else setTimeout(() => to.destroyed || to.write(chunk), due - Date.now());
    });
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no proxy port');
  const dropAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    port: address.port,
    cut() {
      mode = 'cut';
      dropAll();
    },
    silence() {
      // Established connections stop carrying anything too: the server is there, it just never answers.
      mode = 'silent';
      for (const socket of sockets) socket.pause();
    },
    slow(ms) {
      delayMs = ms;
    },
    restore() {
      // As when a partition heals: what was half-open is reset, new connections get through.
      dropAll();
      mode = 'forward';
      delayMs = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        dropAll();
        server.close(() => resolve());
      }),
  };
}
