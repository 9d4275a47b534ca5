import fs from "node:fs";
import path from "node:path";
import type { E2eFixtures } from "./global-setup";

export function fixtures(): E2eFixtures {
  return JSON.parse(fs.readFileSync(path.join("test-results", "e2e-fixtures.json"), "utf8"));
}
