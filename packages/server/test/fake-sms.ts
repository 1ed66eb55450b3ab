import { createServer, type IncomingMessage, type Server } from 'node:http';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FakeSmsGateway {
  url: string;
  requests: RecordedRequest[];
  /** What the next requests get: status and JSON body. */
  answer: { status: number; body: unknown };
  close(): Promise<void>;
}

/** A local stand-in for an SMS provider's HTTP API (node:http on port 0) that records every request. */
export async function startFakeSmsGateway(answer: { status: number; body: unknown }): Promise<FakeSmsGateway> {
  const requests: RecordedRequest[] = [];
  const gateway = { requests, answer } as FakeSmsGateway;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(gateway.answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(gateway.answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  gateway.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  gateway.close = () => new Promise((resolve) => server.close(() => resolve()));
  return gateway;
}
