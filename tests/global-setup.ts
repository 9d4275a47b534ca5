// Once per test run: the server's entries built into dist/ from the current sources, for the tests
// that start a real process (tests/helpers/server-process.ts) or the CLI.
import { buildServer } from "@/scripts/build-server";

export default async function setup(): Promise<void> {
  await buildServer();
}
