// Runs a real Tumira process for over-the-wire tests: a built entry (dist/server.js by default) with
// plain node, as production runs it. tests/global-setup.ts builds dist/ once per test run.
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { DIST_DIR } from "@/scripts/build-server";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export type ServerProcess = {
  url: string;
  port: number;
  child: ChildProcess;
  output: () => string;
  /** SIGTERM and wait for exit; resolves with the exit code. */
  stop: () => Promise<number | null>;
  /** SIGKILL and wait for exit. */
  kill: () => Promise<void>;
};

export async function startServerProcess(options: {
  databaseUrl: string;
  dataDir: string;
  /** The built entry: dist/<entry>.js. */
  entry?: "server" | "worker";
  /** Another script to run instead of the entry, relative to the project. */
  script?: string;
  args?: string[];
  /** Node's own flags, before the script. */
  nodeArgs?: string[];
  /** Added to the test's environment; an undefined value removes a variable. */
  env?: Record<string, string | undefined>;
  /** Path polled until it answers 200 (null: wait for the process only). */
  readyPath?: string | null;
}): Promise<ServerProcess> {
  const port = await freePort();
  const script = options.script ?? path.join(DIST_DIR, `${options.entry ?? "server"}.js`);
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), script, ...(options.args ?? ["--api-only"])], {
    env: {
      ...process.env,
      NODE_ENV: "test",
      LOG_LEVEL: process.env.SERVER_LOG_LEVEL ?? "info",
      DATABASE_URL: options.databaseUrl,
      DATA_DIR: options.dataDir,
      HOST: "127.0.0.1",
      PORT: String(port),
      SMSC_SIMULATOR_PORT: String(await freePort()),
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const readyPath = options.readyPath === undefined ? "/api/health" : options.readyPath;
  if (readyPath) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${output}`);
      const ready = await fetch(url + readyPath).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(`server did not become ready:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
  return {
    url,
    port,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
    kill: async () => {
      if (child.exitCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}
