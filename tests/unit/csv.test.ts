import { describe, expect, it } from "vitest";
import { csvCell, csvLine, readCsvCell } from "@/lib/csv";

describe("CSV cells", () => {
  it("quotes what needs quoting and guards what a spreadsheet would run", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('say "hi", twice')).toBe('"say ""hi"", twice"');
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvCell("-2+3+cmd|' /C calc'!A0")).toBe("'-2+3+cmd|' /C calc'!A0");
    expect(csvCell("+263771234567")).toBe("'+263771234567");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvLine(["a", "b,c"])).toBe('a,"b,c"\r\n');
  });

  it("reads back what it wrote", () => {
    for (const value of ["plain", "+263771234567", "=1+1", 'quote " inside', "a,b", "'already quoted"]) {
      expect(readCsvCell(csvCell(value))).toBe(value);
    }
  });
});
