// Outline icons (24px grid, stroke), drawn inline so nothing loads from outside.
const paths = {
  home: "M3 10.5 12 3l9 7.5M5 9v11h5v-6h4v6h5V9",
  send: "M4 12 20 4l-6 16-3-7-7-1Z",
  inbox: "M4 13h4l2 3h4l2-3h4M4 13l2-8h12l2 8v6H4v-6Z",
  key: "M15 7a3 3 0 1 1-3 3m3-3a3 3 0 0 0-3 3m0 0L4 18v2h3v-2h2v-2h2l1.5-1.5M15 7h.01",
  webhook: "M9 8a3 3 0 1 1 4.5 2.6L16 15m-8-1a3 3 0 1 0 3 3h6m1-3a3 3 0 1 1-1.5 5.6",
  tag: "M3 12V4h8l10 10-8 8L3 12Zm5-4h.01",
  wallet: "M3 7h15a3 3 0 0 1 3 3v7a3 3 0 0 1-3 3H3V7Zm0 0 12-3v3m1 7h.01",
  users:
    "M16 19v-1a4 4 0 0 0-4-4H7a4 4 0 0 0-4 4v1m17 0v-1a4 4 0 0 0-3-3.9M13 4.1a4 4 0 0 1 0 7.8M9.5 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7Z",
  book: "M4 5a2 2 0 0 1 2-2h14v15H6a2 2 0 0 0-2 2V5Zm0 15a2 2 0 0 0 2 2h14",
  search: "m21 21-4.3-4.3M11 18a7 7 0 1 1 0-14 7 7 0 0 1 0 14Z",
  building: "M4 21V5l8-3v19M12 8h8v13M8 9v.01M8 13v.01M8 17v.01M16 12v.01M16 16v.01M2 21h20",
  menu: "M4 6h16M4 12h16M4 18h16",
  signal: "M4 20v-3M9 20v-7M14 20V9M19 20V4",
  logout: "M15 17l5-5-5-5m5 5H9m4 8H5a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1h8",
  history: "M3 12a9 9 0 1 0 3-6.7L3 8m0-5v5h5m4-1v5l3 2",
  clock: "M12 7v5l3 2m6-2a9 9 0 1 1-18 0 9 9 0 0 1 18 0Z",
} as const;

export type IconName = keyof typeof paths;

export function Icon({ name, className = "h-4 w-4" }: { name: IconName; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.7}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
      aria-hidden
    >
      <path d={paths[name]} />
    </svg>
  );
}
