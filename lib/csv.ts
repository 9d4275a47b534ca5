// CSV as Tumira writes it (the API's message export and the dashboard's downloads): RFC 4180 fields
// and CRLF lines. A cell that a spreadsheet would run as a formula (a leading =, +, -, @, tab or
// carriage return) gets a leading ', as OWASP advises; Tumira's own CSV readers drop it again.

export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One line of cells, CRLF-terminated. */
export function csvLine(values: readonly string[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}

/** A cell as written by csvCell, read back: unquoted, and the formula guard dropped. */
export function readCsvCell(cell: string): string {
  const unquoted = cell.replace(/^"(.*)"$/s, "$1").replaceAll('""', '"');
  return /^'[=+\-@\t\r]/.test(unquoted) ? unquoted.slice(1) : unquoted;
}
