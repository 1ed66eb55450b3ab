import { escapeHtml } from '../../lib/html.ts';

/** Posts the confirmed logout to the provider's end-session confirmation, with a button when scripts are off. */
export function logoutContinuationPage(form: { action: string; xsrf: string }): string {
  return `<!DOCTYPE html>
<html lang="vi"><head><meta charset="utf-8"><title>Passgate</title>
<script src="/api/v1/requests/logout-submit.js"></script></head>
<body><form method="post" action="${escapeHtml(form.action)}">
<input type="hidden" name="xsrf" value="${escapeHtml(form.xsrf)}">
<input type="hidden" name="logout" value="yes">
<noscript><button type="submit">Đăng xuất / Log out</button></noscript>
</form></body></html>`;
}
