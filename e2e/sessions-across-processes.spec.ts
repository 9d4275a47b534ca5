// Dashboard sessions end on every server process: a second server (process B) runs beside the one
// Playwright started (process A) on the same database. A user signs in through A; signing out, a
// password change (from another session of theirs) and an owner's change of their role, each made
// through A, make a copy of their cookie refused by B. Cookies do not tell ports apart, so one
// browser context speaks to both processes with the same cookie. Also: the change-password form's
// errors, and the session that changed the password staying signed in.
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { expect, test, type Browser, type BrowserContext, type Cookie } from "@playwright/test";
import { e2eDataDir } from "../playwright.config";
import { cli, type E2eUser } from "./global-setup";
import { signIn } from "./fixtures";

let processB: ChildProcess;
let urlB: string;
let output = "";
let owner: E2eUser & { accountId: string };
let users = 0;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

test.beforeAll(async () => {
  owner = { email: "owner@sessions.tumira.test", password: "e2e sessions owner password", accountId: "" };
  const created = cli([
    "accounts:create",
    ...["--name", "Sessions Ltd", "--currency", "USD", "--balance", "1.00", "--sender", "SESS"],
    ...["--owner-email", owner.email, "--owner-password", owner.password],
  ]);
  owner.accountId = String(created.id);

  const port = await freePort();
  urlB = `http://127.0.0.1:${port}`;
  processB = spawn(process.execPath, ["dist/server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: e2eDataDir,
      NEXTAUTH_URL: urlB,
      LOG_LEVEL: "warn",
      RUN_DISPATCHER: "false",
      SMSC_SIMULATOR: "off",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  processB.stdout!.on("data", (chunk) => (output += chunk));
  processB.stderr!.on("data", (chunk) => (output += chunk));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (processB.exitCode !== null) throw new Error(`process B exited (${processB.exitCode}):\n${output}`);
    const ready = await fetch(`${urlB}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`process B did not become ready:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
});

test.afterAll(async () => {
  if (!processB || processB.exitCode !== null) return;
  const exited = new Promise((resolve) => processB.once("exit", resolve));
  processB.kill("SIGTERM");
  await exited;
});

/** A developer of the Sessions account, new for each test. */
function newMember(): E2eUser {
  const member = { email: `member${++users}@sessions.tumira.test`, password: `e2e member ${users} password` };
  cli(["users:create", "--email", member.email, "--password", member.password, "--role", "developer", "--account", owner.accountId]);
  return member;
}

async function signedIn(browser: Browser, user: E2eUser): Promise<BrowserContext> {
  const context = await browser.newContext();
  await signIn(await context.newPage(), user);
  return context;
}

/** What process B answers a dashboard request carrying these cookies. */
async function statusOnB(browser: Browser, cookies: Cookie[]): Promise<number> {
  const replay = await browser.newContext();
  await replay.addCookies(cookies);
  const response = await replay.request.get(`${urlB}/api/dashboard/messages`);
  await replay.close();
  return response.status();
}

test("a cookie saved before signing out through one process is refused by the other", async ({ browser }) => {
  const member = newMember();
  const context = await signedIn(browser, member);
  const saved = await context.cookies();
  expect(await statusOnB(browser, saved)).toBe(200);

  const page = context.pages()[0];
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);

  expect(await statusOnB(browser, saved)).toBe(401);
  await context.close();
});

test("changing the password ends the user's other sessions on every process and keeps this one", async ({ browser }) => {
  const member = newMember();
  const here = await signedIn(browser, member);
  const elsewhere = await signedIn(browser, member);
  const savedHere = await here.cookies();
  const savedElsewhere = await elsewhere.cookies();
  expect(await statusOnB(browser, savedElsewhere)).toBe(200);

  const page = here.pages()[0];
  await page.getByRole("link", { name: "Password" }).click();
  await expect(page).toHaveURL(/\/dashboard\/password/);
  const form = page.getByTestId("change-password-form");
  const fill = async (current: string, next: string, again: string) => {
    await form.getByLabel("Current password").fill(current);
    await form.getByLabel("New password", { exact: true }).fill(next);
    await form.getByLabel("New password again").fill(again);
    await form.getByRole("button", { name: "Change password" }).click();
  };

  await fill("not my password", "a brand new password", "a brand new password");
  await expect(page.getByTestId("current-password-error")).toHaveText("is not your current password");
  await fill(member.password, "short", "short");
  await expect(page.getByTestId("new-password-error")).toHaveText("must be at least 10 characters");
  await fill(member.password, "a brand new password", "a different new password");
  await expect(page.getByTestId("confirm-password-error")).toHaveText("must match the new password");
  expect(await statusOnB(browser, savedElsewhere)).toBe(200);

  await fill(member.password, "a brand new password", "a brand new password");
  await expect(page.getByText("Password changed. Signed out of 1 other session.")).toBeVisible();
  await expect(form.getByLabel("Current password")).toHaveValue("");

  expect(await statusOnB(browser, savedElsewhere)).toBe(401);
  expect(await statusOnB(browser, savedHere)).toBe(200);
  await page.goto("/dashboard/messages");
  await expect(page.getByTestId("user-email")).toHaveText(member.email);

  const fresh = await signedIn(browser, { email: member.email, password: "a brand new password" });
  await fresh.close();
  await here.close();
  await elsewhere.close();
});

test("an owner changing a member's role ends the member's sessions on every process", async ({ browser }) => {
  const member = newMember();
  const memberContext = await signedIn(browser, member);
  const saved = await memberContext.cookies();
  expect(await statusOnB(browser, saved)).toBe(200);

  const ownerContext = await signedIn(browser, owner);
  const page = ownerContext.pages()[0];
  await page.goto("/dashboard/members");
  const row = page.getByTestId("member-row").filter({ hasText: member.email });
  await expect(row).toContainText("Developer");
  await row.getByRole("button", { name: `Change the role of ${member.email}` }).click();
  const dialog = page.getByTestId("change-role-dialog");
  await expect(dialog).toContainText("Every session they have open ends");
  await dialog.getByRole("button", { name: "Change role" }).click();
  await expect(page.getByText(`${member.email} is now an owner; their sessions have ended`)).toBeVisible();
  await expect(row).toContainText("Owner");

  expect(await statusOnB(browser, saved)).toBe(401);
  const memberPage = memberContext.pages()[0];
  await memberPage.goto("/dashboard/messages");
  await expect(memberPage).toHaveURL(/\/login/);

  await page.goto("/dashboard/audit");
  await expect(page.locator('[data-testid="audit-row"][data-action="user.role_changed"]').first()).toContainText(member.email);
  await ownerContext.close();
  await memberContext.close();
});
