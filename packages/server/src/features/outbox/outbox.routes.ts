import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { DevOutboxItem } from '../../messaging/dev-outbox.ts';
import { escapeHtml } from '../../lib/html.ts';
import { encodeUriComponentOf } from '../../lib/unicode.ts';
import { devPage } from './dev-page.ts';

const querySchema = z.object({
  to: z.string().trim().max(254).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});

/** The JSON form of an outbox message (DESIGN.md section 5). */
export interface OutboxJsonItem {
  id: string;
  channel: 'email' | 'sms';
  to: string;
  subject: string | null;
  text: string;
  code: string | null;
  createdAt: string;
}

export function toJsonItem(item: DevOutboxItem): OutboxJsonItem {
  return {
    id: item.id,
    channel: item.channel,
    to: item.to,
    subject: item.subject,
    text: item.text,
    code: item.code,
    createdAt: new Date(item.createdAt).toISOString(),
  };
}

/** JSON when the client asks for it (`Accept: application/json`) ahead of HTML. */
function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  const json = accept.indexOf('application/json');
  if (json < 0) return false;
  const html = accept.indexOf('text/html');
  return html < 0 || json < html;
}

/**
 * Development only: every e-mail and SMS the server "sent". `GET /dev/outbox` is a page for
 * people; with `Accept: application/json` it answers `{"items":[…]}`, newest first, for tests.
 */
export async function outboxRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const outbox = ctx.messaging.outbox;
  app.withTypeProvider<ZodTypeProvider>().get('/dev/outbox', {
    schema: {
      tags: ['development'],
      summary: 'Development only: the e-mails and SMS the server sent (HTML, or JSON {items} with Accept: application/json), newest first',
      querystring: querySchema,
    },
    handler: async (request, reply) => {
      const { to, limit } = request.query;
      const items = outbox ? await outbox.list({ to: to || undefined, limit }) : [];
      reply.header('cache-control', 'no-store');
      if (wantsJson(request)) return reply.type('application/json; charset=utf-8').send(JSON.stringify({ items: items.map(toJsonItem) }));
      return reply.type('text/html; charset=utf-8').send(outboxPage(items, to, items.length === limit));
    },
  });
}

function outboxPage(items: DevOutboxItem[], to: string | undefined, truncated: boolean): string {
  const filter = `<form method="get" action="/dev/outbox" class="card">
<label for="to">Recipient (e-mail or phone)</label>
<input id="to" name="to" type="text" value="${escapeHtml(to ?? '')}" size="32">
<button type="submit">Filter</button> <a class="button secondary" href="/dev/outbox">Show all</a>
</form>`;
  const rows = items
    .map((item) => {
      const html = item.html
        ? `<details><summary class="muted">HTML source</summary><pre>${escapeHtml(item.html)}</pre></details>`
        : '';
      return `<tr>
<td><time datetime="${new Date(item.createdAt).toISOString()}">${escapeHtml(new Date(item.createdAt).toISOString().replace('T', ' ').slice(0, 19))}</time></td>
<td><span class="badge">${item.channel === 'sms' ? 'SMS' : 'E-mail'}</span></td>
<td><a href="/dev/outbox?to=${encodeUriComponentOf(item.to)}">${escapeHtml(item.to)}</a></td>
<td>${item.code ? `<span class="code">${escapeHtml(item.code)}</span>` : '<span class="muted">none</span>'}</td>
<td>${item.subject ? `<strong>${escapeHtml(item.subject)}</strong>` : ''}<pre>${escapeHtml(item.text)}</pre>${html}</td>
</tr>`;
    })
    .join('\n');
  const table =
    items.length === 0
      ? `<p class="card muted">No messages${to ? ` to ${escapeHtml(to)}` : ''} yet.</p>`
      : `<table><thead><tr><th scope="col">Sent (UTC)</th><th scope="col">Channel</th><th scope="col">To</th><th scope="col">Code</th><th scope="col">Message</th></tr></thead>
<tbody>
${rows}
</tbody></table>`;
  return devPage(
    'Passgate dev outbox',
    `<h1>Dev outbox</h1>
<p class="muted">Development mode: e-mails and SMS are not sent; they are kept here, newest first. Reload the page to see new ones.
JSON for tests: <code>GET /dev/outbox?to=ADDRESS</code> with <code>Accept: application/json</code>.</p>
${filter}
${truncated ? `<p class="muted">Showing the newest ${items.length} messages; add <code>&amp;limit=1000</code> to the address for more.</p>` : ''}
${table}
<p><a href="/demo">Demo relying party</a></p>`,
  );
}
