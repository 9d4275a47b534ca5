// As bench/lua/load.lua draws them: random over the carriers, ending in 9 (no simulator magic ending).
const PREFIXES = ["263771", "263781", "263711", "263731"];

export function randomRecipient(): string {
  return `${PREFIXES[Math.floor(Math.random() * PREFIXES.length)]}${String(Math.floor(Math.random() * 100_000)).padStart(5, "0")}9`;
}
