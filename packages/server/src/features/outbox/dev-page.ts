import { escapeHtml } from '../../lib/html.ts';

/** A plain, self-contained development page: no scripts (the CSP allows none inline), inline styles only. */
export function devPage(title: string, body: string, lang = 'en'): string {
  return `<!DOCTYPE html>
<html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f5f6f8;color:#1d2330}
main{max-width:1100px;margin:0 auto;padding:24px}
h1{font-size:1.6rem;margin:0 0 16px}
h2{font-size:1.2rem;margin:24px 0 8px}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{border:1px solid #d7dbe3;padding:6px 10px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#eef1f6}
pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:0;font-size:.9rem}
table{table-layout:fixed}
@media (max-width:600px){main{padding:12px}}
code,.code{font-family:ui-monospace,Menlo,Consolas,monospace}
.code{font-size:1.2rem;font-weight:700;letter-spacing:.1em}
.card{background:#fff;border:1px solid #d7dbe3;border-radius:8px;padding:16px;margin:16px 0}
.error{background:#fdecea;border-color:#f5c2bd;color:#8a1c12}
.muted{color:#5d6678}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;background:#e3e8f1;font-size:.8rem}
button,.button{display:inline-block;padding:8px 16px;border-radius:6px;border:1px solid #1565c0;background:#1565c0;color:#fff;font-size:1rem;cursor:pointer;text-decoration:none;margin:4px 8px 4px 0}
.button.secondary{background:#fff;color:#1565c0}
input,select{padding:6px 8px;font-size:1rem}
a{color:#1565c0}
</style></head>
<body><main>
${body}
</main></body></html>`;
}
