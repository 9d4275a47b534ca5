// Horizontal bar charts as standalone SVG: no script, no font or style from outside, so the same
// text works inlined in the HTML report and as an image file in docs/. One bar per competitor (long
// names stay readable on the left), a whisker from the lowest to the highest run when there are
// several, and the target as a dashed line.
import type { Spread } from "./spread";

export type Bar = { label: string; color: string; spread: Spread | null };

export type Chart = {
  /** File name in docs/performance/ and anchor in the HTML report. */
  id: string;
  title: string;
  /** What is measured and how to read it: shown beside the chart, not in it. */
  description: string;
  format: (value: number) => string;
  bars: Bar[];
  reference?: { value: number; label: string };
};

export const chartColors = {
  kannel: "#94a3b8",
  sqlite: "#16a34a",
  sqliteLight: "#86efac",
  postgres: "#0284c7",
  postgresLight: "#7dd3fc",
  target: "#dc2626",
  ink: "#0f172a",
  muted: "#64748b",
  grid: "#e2e8f0",
} as const;

const PLOT_WIDTH = 360;
const VALUE_WIDTH = 200;
/** Width of one character of the 12 px labels, near enough to size the label column. */
const LABEL_CHAR = 6.4;
const TOP = 72;
const ROW = 30;
const BAR = 18;
const AXIS = 30;
const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** 1, 2 or 5 × a power of ten, giving about five gridlines up to max. */
function tickStep(max: number): number {
  const rough = max / 5;
  const power = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 5, 10].map((factor) => factor * power).find((step) => step >= rough) ?? power * 10;
}

function compact(value: number): string {
  if (value >= 1_000_000) return `${value / 1_000_000}M`;
  if (value >= 10_000) return `${value / 1000}k`;
  return value.toLocaleString("en");
}

function text(x: number, y: number, content: string, attributes = ""): string {
  return `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" ${attributes}>${escapeXml(content)}</text>`;
}

export function renderChartSvg(chart: Chart): string {
  const labelWidth = Math.max(120, Math.ceil(Math.max(...chart.bars.map((bar) => bar.label.length)) * LABEL_CHAR));
  const plotLeft = labelWidth + 22;
  const width = plotLeft + PLOT_WIDTH + VALUE_WIDTH;
  const largest = Math.max(chart.reference?.value ?? 0, ...chart.bars.map((bar) => bar.spread?.max ?? 0));
  const step = tickStep(largest > 0 ? largest : 1);
  const top = Math.ceil((largest * 1.02) / step) * step || step;
  const x = (value: number) => plotLeft + (Math.max(0, value) / top) * PLOT_WIDTH;
  const plotBottom = TOP + chart.bars.length * ROW;
  const height = plotBottom + AXIS + 8;
  const runs = Math.max(0, ...chart.bars.map((bar) => bar.spread?.runs ?? 0));
  const parts: string[] = [
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    text(12, 22, chart.title, `font-size="15" font-weight="600" fill="${chartColors.ink}"`),
    text(
      12,
      40,
      runs > 1 ? `bar: median of ${runs} runs; whisker: lowest to highest run` : "one run",
      `font-size="11" fill="${chartColors.muted}"`,
    ),
  ];
  for (let tick = 0; tick <= top + step / 2; tick += step) {
    parts.push(
      `<line x1="${x(tick).toFixed(1)}" y1="${TOP - 6}" x2="${x(tick).toFixed(1)}" y2="${plotBottom}" stroke="${chartColors.grid}"/>`,
    );
    parts.push(text(x(tick), plotBottom + 16, compact(tick), `font-size="11" fill="${chartColors.muted}" text-anchor="middle"`));
  }
  chart.bars.forEach((bar, index) => {
    const middle = TOP + index * ROW + ROW / 2;
    parts.push(text(plotLeft - 10, middle + 4, bar.label, `font-size="12" fill="${chartColors.ink}" text-anchor="end"`));
    if (!bar.spread) {
      parts.push(text(plotLeft + 4, middle + 4, "no figure", `font-size="12" fill="${chartColors.muted}" font-style="italic"`));
      return;
    }
    const { median, min, max } = bar.spread;
    parts.push(
      `<rect x="${plotLeft}" y="${(middle - BAR / 2).toFixed(1)}" width="${(x(median) - plotLeft).toFixed(1)}" height="${BAR}" rx="2" fill="${bar.color}"/>`,
    );
    if (min < max) {
      const [from, to] = [x(min), x(max)];
      parts.push(
        `<path d="M${from.toFixed(1)} ${middle}H${to.toFixed(1)}M${from.toFixed(1)} ${middle - 5}v10M${to.toFixed(1)} ${middle - 5}v10" stroke="${chartColors.ink}" stroke-width="1.3" fill="none"/>`,
      );
    }
    const value = min === max ? chart.format(median) : `${chart.format(median)} (${chart.format(min)}–${chart.format(max)})`;
    parts.push(text(Math.max(x(median), x(max)) + 6, middle + 4, value, `font-size="11" fill="${chartColors.ink}"`));
  });
  if (chart.reference) {
    const at = x(chart.reference.value);
    parts.push(
      `<line x1="${at.toFixed(1)}" y1="${TOP - 12}" x2="${at.toFixed(1)}" y2="${plotBottom}" stroke="${chartColors.target}" stroke-width="1.5" stroke-dasharray="5 3"/>`,
    );
    const anchor = at > plotLeft + PLOT_WIDTH * 0.7 ? "end" : "start";
    parts.push(
      text(
        anchor === "end" ? at - 4 : at + 4,
        TOP - 14,
        chart.reference.label,
        `font-size="11" fill="${chartColors.target}" text-anchor="${anchor}"`,
      ),
    );
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT}" role="img" aria-label="${escapeXml(chart.title)}">`,
    `<title>${escapeXml(chart.title)}</title>`,
    ...parts,
    "</svg>",
  ].join("\n");
}
