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

  it("shows money exactly: whole cents at the currency's precision, any other amount with four decimals", () => {
    expect(formatMoney(1_255_000n, "USD")).toBe("USD 125.50");
    expect(formatMoney(17_900n, "USD")).toBe("USD 1.79");
    expect(formatMoney(1_255_099n, "USD")).toBe("USD 125.5099");
    expect(formatMoney(123_456n, "USD")).toBe("USD 12.3456");
    expect(formatMoney(255_000n, "USD")).toBe("USD 25.50");
    expect(formatMoney(-350n, "USD")).toBe("-USD 0.0350");
    expect(formatMoney(999_650n, "USD")).toBe("USD 99.9650");
    expect(formatMoney(-1n, "USD")).toBe("-USD 0.0001");
    expect(formatMoney(0n, "USD")).toBe("USD 0.00");
    expect(formatMoney(1_000_000_000_972_000n, "USD")).toBe("USD 100,000,000,097.20");
    expect(formatMoney(1_000_000_000_972_150n, "USD")).toBe("USD 100,000,000,097.2150");
    expect(formatMoney(12_340_000n, "JPY")).toBe("JPY 1,234");
    expect(formatMoney(12_345_000n, "JPY")).toBe("JPY 1,234.5000");
  });

  it("shows four decimals whatever the amount where asked (per-message prices)", () => {
    expect(formatMoney(15_500n, "USD", { fourDecimals: true })).toBe("USD 1.5500");
    expect(formatMoney(1_000_000_000_972_000n, "USD", { fourDecimals: true })).toBe("USD 100,000,000,097.2000");
  });
});
