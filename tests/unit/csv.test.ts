import { describe, expect, it } from "vitest";
import { csvCell, csvLine, csvNumber, readCsvCell } from "@/lib/csv";

describe("CSV cells", () => {
  it("quotes what needs quoting and guards what a spreadsheet would run", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('say "hi", twice')).toBe('"say ""hi"", twice"');
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvCell("-2+3+cmd|' /C calc'!A0")).toBe("'-2+3+cmd|' /C calc'!A0");
    expect(csvCell("+263771234567")).toBe("'+263771234567");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\tcmd")).toBe("'\tcmd");
    expect(csvLine(["a", "b,c"])).toBe('a,"b,c"\r\n');
  });

  it("leaves a plain number in a number cell as a number, so a spreadsheet sums it", () => {
    expect(csvCell(csvNumber("-0.0320"))).toBe("-0.0320");
    expect(csvCell(csvNumber("+5"))).toBe("+5");
    expect(csvCell(csvNumber("12.5000"))).toBe("12.5000");
    expect(csvLine(["hold", csvNumber("-0.0320"), csvNumber("99.9680")])).toBe("hold,-0.0320,99.9680\r\n");
  });

  it("guards a formula in a number cell like any text", () => {
    expect(csvCell(csvNumber("-2+3"))).toBe("'-2+3");
    expect(csvCell(csvNumber("+5+5"))).toBe("'+5+5");
    expect(csvCell(csvNumber("-1e3"))).toBe("'-1e3");
    expect(csvCell(csvNumber('=HYPERLINK("http://x")'))).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell(csvNumber("\t-1"))).toBe("'\t-1");
    expect(csvCell("-0.0320")).toBe("'-0.0320");
  });

  it("reads back what it wrote", () => {
    for (const value of ["plain", "+263771234567", "-2+3", "=1+1", 'quote " inside', "a,b", "'already quoted"]) {
      expect(readCsvCell(csvCell(value))).toBe(value);
    }
  });
});
