// Dashboard sessions are rows: a cookie is honoured only while its UserSession is live, so signing
// out, removing a member, changing a member's role, changing one's password (every other session)
// or disabling a user ends the session for every copy of the cookie, on every server process (each
// reads the same row).
import { beforeAll, describe, expect, it } from "vitest";
import type { Session } from "next-auth";
import type { JWT } from "next-auth/jwt";
import { db } from "@/lib/db/client";
import { authOptions } from "@/lib/auth/auth-options";
import { createAccount } from "@/lib/accounts/create-account";
import { createUser } from "@/lib/users/create-user";
import { removeMember } from "@/lib/users/remove-member";
import { changePassword, changePasswordSchema } from "@/lib/users/change-password";
import { changeMemberRole } from "@/lib/users/change-member-role";
import { AppError } from "@/lib/errors";
import { MAX_FAILURES_PER_EMAIL } from "@/lib/auth/login-throttle";
import { useTestDatabase } from "../helpers/test-database";

useTestDatabase();

let accountId: string;

beforeAll(async () => {
  accountId = (await createAccount({ name: "Sessions", currency: "USD", openingBalance: 0n, senders: [], actor: "test" })).id;
});

/** What next-auth does at sign-in: the authorised user becomes the cookie's token. */
async function signIn(email: string, password = "a-long-password"): Promise<JWT> {
  const user = await authOptions.providers[0].options.authorize({ email, password }, { headers: {} });
  expect(user).not.toBeNull();
  return authOptions.callbacks!.jwt!({ token: {}, user, account: null } as never);
}

/** What every dashboard request does with the cookie's token. */
async function sessionUser(token: JWT): Promise<Session["user"]> {
  const session = await authOptions.callbacks!.session!({ session: { expires: "" }, token } as never);
  return (session as Session).user;
}

async function newMember(email: string) {
  return createUser({ email, password: "a-long-password", role: "developer", accountId, actor: "test" });
}

describe("dashboard sessions", () => {
  it("honours a signed-in cookie and refuses every copy of it after sign-out", async () => {
    await newMember("signout@example.com");
    const token = await signIn("signout@example.com");
    const other = await signIn("signout@example.com");
    expect(token.sid).toMatch(/^[0-9a-f-]{36}$/);
    expect((await sessionUser(token))?.email).toBe("signout@example.com");

    await authOptions.events!.signOut!({ token, session: {} } as never);

    expect(await sessionUser({ ...token })).toBeUndefined();
    // Another sign-in of the same user (another browser) is its own session and stays.
    expect((await sessionUser(other))?.email).toBe("signout@example.com");
    const row = await db().userSession.findUnique({ where: { id: token.sid! } });
    expect(row?.endedAt).toBeInstanceOf(Date);
  });

  it("refuses a cookie without a session id, or naming an unknown one", async () => {
    const member = await newMember("legacy@example.com");
    const legacy = { uid: member.id, role: "developer", accountId, sessionVersion: 0 } as JWT;
    expect(await sessionUser(legacy)).toBeUndefined();
    expect(await sessionUser({ ...legacy, sid: "00000000-0000-4000-8000-000000000000" })).toBeUndefined();
  });

  it("ends the sessions of a removed member and of a disabled user", async () => {
    const owner = await createUser({
      email: "owner-of-sessions@example.com",
      password: "a-long-password",
      role: "owner",
      accountId,
      actor: "test",
    });
    const removed = await newMember("removed@example.com");
    const disabled = await newMember("disabled@example.com");
    const removedToken = await signIn("removed@example.com");
    const disabledToken = await signIn("disabled@example.com");

    await removeMember({ accountId, userId: removed.id, actingUserId: owner.id });
    await db().user.update({ where: { id: disabled.id }, data: { disabledAt: new Date() } });

    expect(await sessionUser(removedToken)).toBeUndefined();
    expect(await sessionUser(disabledToken)).toBeUndefined();
  });

  it("ends every other session of a user who changes their password, and keeps the one that changed it", async () => {
    const user = await newMember("changer@example.com");
    const here = await signIn("changer@example.com");
    const elsewhere = await signIn("changer@example.com");
    const change = { currentPassword: "a-long-password", newPassword: "another-long-password", confirmPassword: "another-long-password" };

    const ended = await changePassword({ ...change, userId: user.id, currentSessionId: here.sid! });

    expect(ended).toEqual({ endedSessions: 1 });
    expect((await sessionUser(here))?.email).toBe("changer@example.com");
    expect(await sessionUser(elsewhere)).toBeUndefined();
    expect(
      await authOptions.providers[0].options.authorize({ email: "changer@example.com", password: "a-long-password" }, { headers: {} }),
    ).toBeNull();
    expect((await sessionUser(await signIn("changer@example.com", "another-long-password")))?.email).toBe("changer@example.com");
    const audit = await db().auditEvent.findFirstOrThrow({ where: { action: "user.password_changed", targetId: user.id } });
    expect(audit.actor).toBe(`user:${user.id}`);
    expect(JSON.parse(audit.data)).toEqual({ email: "changer@example.com", endedSessions: 1 });
    expect(audit.data).not.toContain("another-long-password");
  });

  it("refuses a wrong current password, a short or unconfirmed new one, naming the field and changing nothing", async () => {
    const user = await newMember("careful@example.com");
    const here = await signIn("careful@example.com");
    const elsewhere = await signIn("careful@example.com");
    const before = await db().user.findUniqueOrThrow({ where: { id: user.id } });

    const wrong = await changePassword({
      currentPassword: "not-the-password",
      newPassword: "another-long-password",
      confirmPassword: "another-long-password",
      userId: user.id,
      currentSessionId: here.sid!,
    }).catch((error: unknown) => error);
    expect(wrong).toBeInstanceOf(AppError);
    expect((wrong as AppError).options.fields).toEqual([{ field: "currentPassword", description: "is not your current password" }]);
    const parsed = changePasswordSchema.safeParse({ currentPassword: "a-long-password", newPassword: "short", confirmPassword: "other" });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((issue) => issue.path.join("."))).toEqual(expect.arrayContaining(["newPassword", "confirmPassword"]));

    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash).toBe(before.passwordHash);
    expect((await sessionUser(elsewhere))?.email).toBe("careful@example.com");
    expect(await db().auditEvent.count({ where: { action: "user.password_changed", targetId: user.id } })).toBe(0);
  });

  it("counts wrong current passwords with failed sign-ins, and refuses even the right one past the limit", async () => {
    const user = await newMember("guessed@example.com");
    const here = await signIn("guessed@example.com");
    const before = await db().user.findUniqueOrThrow({ where: { id: user.id } });
    const attempt = (currentPassword: string) =>
      changePassword({
        currentPassword,
        newPassword: "another-long-password",
        confirmPassword: "another-long-password",
        userId: user.id,
        currentSessionId: here.sid!,
      }).catch((error: unknown) => error);
    for (let guess = 0; guess < MAX_FAILURES_PER_EMAIL; guess++) {
      expect(((await attempt(`guess-${guess}`)) as AppError).options.fields?.[0].description).toBe("is not your current password");
    }
    const refused = (await attempt("a-long-password")) as AppError;
    expect(refused).toBeInstanceOf(AppError);
    expect(refused.options.fields).toEqual([
      { field: "currentPassword", description: "too many wrong passwords: try again in 15 minutes" },
    ]);
    const signInRefused = await authOptions.providers[0].options
      .authorize({ email: "guessed@example.com", password: "a-long-password" }, { headers: {} })
      .catch((error: unknown) => error);
    expect(signInRefused).toBeInstanceOf(Error);
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash).toBe(before.passwordHash);
    expect(await db().auditEvent.count({ where: { action: "user.password_changed", targetId: user.id } })).toBe(0);
  });

  it("ends every session of a member whose role an owner changes, and records it", async () => {
    const owner = await createUser({
      email: "role-owner@example.com",
      password: "a-long-password",
      role: "owner",
      accountId,
      actor: "test",
    });
    const member = await newMember("promoted@example.com");
    const ownerToken = await signIn("role-owner@example.com");
    const memberToken = await signIn("promoted@example.com");
    expect((await sessionUser(memberToken))?.role).toBe("developer");

    expect(await changeMemberRole({ id: member.id, role: "owner", accountId, actingUserId: owner.id })).toEqual({
      id: member.id,
      role: "owner",
      endedSessions: 1,
    });

    expect(await sessionUser(memberToken)).toBeUndefined();
    expect((await sessionUser(ownerToken))?.email).toBe("role-owner@example.com");
    expect((await sessionUser(await signIn("promoted@example.com")))?.role).toBe("owner");
    const audit = await db().auditEvent.findFirstOrThrow({ where: { action: "user.role_changed", targetId: member.id } });
    expect(audit).toMatchObject({ accountId, actor: `user:${owner.id}` });
    expect(JSON.parse(audit.data)).toEqual({ email: "promoted@example.com", from: "developer", to: "owner", endedSessions: 1 });

    const self = await changeMemberRole({ id: owner.id, role: "developer", accountId, actingUserId: owner.id }).catch(
      (error: unknown) => error,
    );
    expect((self as AppError).options.fields?.map((field) => field.field)).toEqual(["role"]);
    const elsewhere = await createAccount({ name: "Elsewhere", currency: "USD", openingBalance: 0n, senders: [], actor: "test" });
    const notOurs = await changeMemberRole({ id: member.id, role: "developer", accountId: elsewhere.id, actingUserId: owner.id }).catch(
      (error: unknown) => error,
    );
    expect((notOurs as AppError).code).toBe("NOT_FOUND");
    expect((await db().user.findUniqueOrThrow({ where: { id: member.id } })).role).toBe("owner");
  });

  it("lets one of two owners removing or demoting each other at the same moment win, so the account keeps an owner", async () => {
    const team = await createAccount({ name: "Two owners", currency: "USD", openingBalance: 0n, senders: [], actor: "test" });
    const owner = (email: string) => createUser({ email, password: "a-long-password", role: "owner", accountId: team.id, actor: "test" });
    const [first, second] = [await owner("first-owner@example.com"), await owner("second-owner@example.com")];

    const removals = await Promise.allSettled([
      removeMember({ accountId: team.id, userId: second.id, actingUserId: first.id }),
      removeMember({ accountId: team.id, userId: first.id, actingUserId: second.id }),
    ]);
    expect(removals.map((removal) => removal.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(removals.find((removal) => removal.status === "rejected")).toMatchObject({ reason: { code: "FORBIDDEN" } });
    const owners = await db().user.findMany({ where: { accountId: team.id, role: "owner" } });
    expect(owners).toHaveLength(1);
    expect(await db().auditEvent.count({ where: { accountId: team.id, action: "user.removed" } })).toBe(1);

    const third = await owner("third-owner@example.com");
    const demotions = await Promise.allSettled([
      changeMemberRole({ id: third.id, role: "developer", accountId: team.id, actingUserId: owners[0].id }),
      changeMemberRole({ id: owners[0].id, role: "developer", accountId: team.id, actingUserId: third.id }),
    ]);
    expect(demotions.map((demotion) => demotion.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await db().user.count({ where: { accountId: team.id, role: "owner" } })).toBe(1);
    expect(await db().auditEvent.count({ where: { accountId: team.id, action: "user.role_changed" } })).toBe(1);
  });

  it("refuses a member change by someone who is no longer an owner, changing nothing", async () => {
    const team = await createAccount({ name: "Former owner", currency: "USD", openingBalance: 0n, senders: [], actor: "test" });
    const former = await createUser({
      email: "former-owner@example.com",
      password: "a-long-password",
      role: "developer",
      accountId: team.id,
      actor: "test",
    });
    const member = await createUser({
      email: "kept-member@example.com",
      password: "a-long-password",
      role: "owner",
      accountId: team.id,
      actor: "test",
    });

    for (const change of [
      () => removeMember({ accountId: team.id, userId: member.id, actingUserId: former.id }),
      () => changeMemberRole({ id: member.id, role: "developer", accountId: team.id, actingUserId: former.id }),
    ]) {
      await expect(change()).rejects.toMatchObject({ code: "FORBIDDEN" });
    }
    expect(await db().user.findUniqueOrThrow({ where: { id: member.id } })).toMatchObject({ role: "owner", sessionVersion: 0 });
  });
});
