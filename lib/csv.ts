// CSV as Tumira writes it (the API's message export and the dashboard's downloads): RFC 4180 fields
// and CRLF lines. A text cell that a spreadsheet would run as a formula (a leading =, +, -, @, tab or
// carriage return) gets a leading ', as OWASP advises; Tumira's own CSV readers drop it again. A number
// cell (csvNumber) holding a plain number ("-0.0320", "+5") is no formula and stays as it is, so a
// spreadsheet sums it; text in a number cell is guarded like any text.

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/;

/** A cell a spreadsheet should read as a number, such as a signed amount. */
export type CsvNumber = { number: string };

export type CsvValue = string | CsvNumber;

export function csvNumber(text: string): CsvNumber {
  return { number: text };
}

export function csvCell(value: CsvValue): string {
  const text = typeof value === "string" ? value : value.number;
  const plainNumber = typeof value !== "string" && PLAIN_NUMBER.test(text);
  const safe = FORMULA_START.test(text) && !plainNumber ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One line of cells, CRLF-terminated. */
export function csvLine(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}

/** A cell as written by csvCell, read back: unquoted, and the formula guard dropped. */
export function readCsvCell(cell: string): string {
  const unquoted = cell.replace(/^"(.*)"$/s, "$1").replaceAll('""', '"');
  return /^'[=+\-@\t\r]/.test(unquoted) ? unquoted.slice(1) : unquoted;
}
