// How the first person signs in to a new server: outside production, the Demo account seeded on an
// empty database (SEED_DEMO); in production, a platform admin made with the CLI, which the server
// asks for while none exists.
import { seedDemo, type DemoAccount } from "@/lib/accounts/seed-demo";
import { hasPlatformAdmin } from "@/lib/users/create-platform-admin";

export type FirstLogin = { demo: DemoAccount | null; adminMissing: boolean };

export async function prepareFirstLogin(options: { seedDemo: boolean }): Promise<FirstLogin> {
  const demo = options.seedDemo ? await seedDemo() : null;
  return { demo, adminMissing: !(await hasPlatformAdmin()) };
}

/** The address to open for a server listening on `host`: localhost when it listens on every interface. */
export function serverUrl(host: string, port: number): string {
  if (host === "0.0.0.0" || host === "::") return `http://localhost:${port}`;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** What the server prints once it listens at `url`; `dashboard`: whether it serves the dashboard too (not with --api-only). */
export function describeFirstLogin({ demo, adminMissing }: FirstLogin, url: string, { dashboard }: { dashboard: boolean }): string {
  const lines = [`Tumira is running at ${url}`];
  if (demo) {
    lines.push(
      "",
      "A demo account was created (shown once, note it down):",
      `  account   Demo (${demo.accountId}), USD 100.00, sender id DEMO`,
      `  sign in   ${demo.email}`,
      `  password  ${demo.password}`,
      "",
      `Create your first API key ${dashboard ? `at ${url}/dashboard/keys, or` : "with"}: npm run cli -- keys:create --account ${demo.accountId} --name first`,
    );
  } else if (adminMissing) {
    lines.push(
      "",
      "No platform admin exists yet. Create the first one (its password is printed once):",
      "  npm run cli -- users:create-admin --email you@example.com",
    );
  }
  return `\n${lines.map((line) => `  ${line}`).join("\n")}\n`;
}
