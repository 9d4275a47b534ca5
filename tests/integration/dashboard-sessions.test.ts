// Dashboard sessions are rows: a cookie is honoured only while its UserSession is live, so signing
// out, removing a member or disabling a user ends the session for every copy of the cookie, on
// every server process (each reads the same row).
import { beforeAll, describe, expect, it } from "vitest";
import type { Session } from "next-auth";
import type { JWT } from "next-auth/jwt";
import { db } from "@/lib/db/client";
import { authOptions } from "@/lib/auth/auth-options";
import { createAccount } from "@/lib/accounts/create-account";
import { createUser } from "@/lib/users/create-user";
import { removeMember } from "@/lib/users/remove-member";
import { useTestDatabase } from "../helpers/test-database";

useTestDatabase();

let accountId: string;

beforeAll(async () => {
  accountId = (await createAccount({ name: "Sessions", currency: "USD", openingBalance: 0n, senders: [], actor: "test" })).id;
});

/** What next-auth does at sign-in: the authorised user becomes the cookie's token. */
async function signIn(email: string): Promise<JWT> {
  const user = await authOptions.providers[0].options.authorize({ email, password: "a-long-password" }, { headers: {} });
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
    const owner = await newMember("owner-of-sessions@example.com");
    const removed = await newMember("removed@example.com");
    const disabled = await newMember("disabled@example.com");
    const removedToken = await signIn("removed@example.com");
    const disabledToken = await signIn("disabled@example.com");

    await removeMember({ accountId, userId: removed.id, actingUserId: owner.id });
    await db().user.update({ where: { id: disabled.id }, data: { disabledAt: new Date() } });

    expect(await sessionUser(removedToken)).toBeUndefined();
    expect(await sessionUser(disabledToken)).toBeUndefined();
  });
});
