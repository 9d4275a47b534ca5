import { runCli } from "@/lib/cli/run-cli";
import { closeDatabase } from "@/lib/db/client";

runCli(process.argv.slice(2)).then(async (result) => {
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  await closeDatabase();
  process.exit(result.code);
});
