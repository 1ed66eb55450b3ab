/**
 * CSV for spreadsheets (RFC 4180): a cell with a comma, quote or line break is quoted, its quotes
 * doubled. A cell that a spreadsheet would take for a formula (it begins with =, +, -, @, a tab or
 * a carriage return) is neutralised with a leading apostrophe, so an audit record's user agent or
 * e-mail address cannot run as a formula on an operator's machine (CSV injection).
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line, CRLF-terminated as RFC 4180 says. */
export function csvRow(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
