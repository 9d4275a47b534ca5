import { describe, expect, it } from "vitest";
import { formatAmount, formatMoney, parseAmount } from "@/lib/money";

describe("money", () => {
  it.each([
    ["100", 1_000_000n],
    ["100.00", 1_000_000n],
    ["25.5", 255_000n],
    ["0.0350", 350n],
    ["0.0001", 1n],
    ["-1.25", -12_500n],
  ])("parses %s as %s ten-thousandths", (text, value) => {
    expect(parseAmount(text)).toBe(value);
  });

  it.each(["1.23456", "abc", "", "1,00", "1e3", "+5", "1.", ".5"])("refuses %j", (text) => {
    expect(() => parseAmount(text)).toThrow(/at most four decimals/);
  });

  it("formats and displays", () => {
    expect(formatAmount(1_255_000n)).toBe("125.5000");
    expect(formatAmount(-350n)).toBe("-0.0350");
  });

  it("shows money rounded to the currency's precision with thousands separators, or exact to four decimals", () => {
    expect(formatMoney(1_255_099n, "USD")).toBe("USD 125.51");
    expect(formatMoney(17_960n, "USD")).toBe("USD 1.80");
    expect(formatMoney(15_550n, "USD")).toBe("USD 1.56");
    expect(formatMoney(996_980n, "USD")).toBe("USD 99.70");
    expect(formatMoney(1_000_000_000_972_000n, "USD")).toBe("USD 100,000,000,097.20");
    expect(formatMoney(-350n, "USD")).toBe("-USD 0.04");
    expect(formatMoney(-1n, "USD")).toBe("USD 0.00");
    expect(formatMoney(15_560n, "USD", { exact: true })).toBe("USD 1.5560");
    expect(formatMoney(1_000_000_000_972_000n, "USD", { exact: true })).toBe("USD 100,000,000,097.2000");
    expect(formatMoney(12_345_000n, "JPY")).toBe("JPY 1,235");
  });
});
