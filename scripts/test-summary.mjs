// Prints one closing line for the whole `npm test` run from the runners' JSON reports.
import fs from "node:fs";
import path from "node:path";

const dir = process.argv[2] ?? "test-results";
let passed = 0;
let failed = 0;
let skipped = 0;
// A file whose set-up (beforeAll, an import) throws reports its tests as skipped, not failed.
const filesFailedOutright = [];
for (const file of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
  if (!file.endsWith(".json")) continue;
  const report = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
  if (file.startsWith("vitest")) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
    for (const result of report.testResults) {
      const failedTests = result.assertionResults.filter((test) => test.status === "failed").length;
      if (result.status === "failed" && failedTests === 0) filesFailedOutright.push(path.relative(process.cwd(), result.name));
    }
  } else if (file === "playwright.json") {
    passed += report.stats.expected;
    failed += report.stats.unexpected + report.stats.flaky;
    skipped += report.stats.skipped;
  }
}
const outright = filesFailedOutright.length > 0 ? `; files failed before their tests ran: ${filesFailedOutright.join(", ")}` : "";
console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped${outright}`);
