// Changes only an account owner may make (webhook endpoints, sender id requests) through the API:
// refused to a test key, and to a live key no current owner stands behind (one a developer created,
// or whose creating owner was removed or became a developer), whatever key created which.
import { describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/keys/create-api-key";
import { createUser } from "@/lib/users/create-user";
import { changeMemberRole } from "@/lib/users/change-member-role";
import { removeMember } from "@/lib/users/remove-member";
import { expectKitError, seedAccount, useApiServer, type SeededAccount } from "../helpers/api-test-server";

const { api } = useApiServer();

const ENDPOINT = { url: "https://8.8.8.8/hook", events: ["message.status"] };

async function addUser(account: SeededAccount, role: "owner" | "developer") {
  return createUser({
    email: `${role}-${crypto.randomUUID()}@example.com`,
    password: "a long enough password",
    role,
    accountId: account.accountId,
    actor: "test",
  });
}

async function keyOf(account: SeededAccount, actor: string): Promise<string> {
  return (await createApiKey({ accountId: account.accountId, name: "made by", actor })).token;
}

/** Create, list and rotate a webhook endpoint, and request a sender id, with this key: the statuses, in order. */
async function ownerOnlyStatuses(account: SeededAccount, token: string, endpointId: string): Promise<number[]> {
  const calls = [
    api("POST", "/api/v1/webhooks", { token, body: ENDPOINT }),
    api("GET", "/api/v1/webhooks", { token }),
    api("POST", `/api/v1/webhooks/${endpointId}/rotate`, { token }),
    api("POST", `/api/v1/accounts/${account.accountId}/sender-ids`, { token, body: { sender_id: `S${Date.now() % 1e9}` } }),
  ];
  return (await Promise.all(calls)).map((call) => call.status);
}

describe("owner-only changes through the API", () => {
  it("refuses a test key every webhook endpoint route and sender id requests, and still lets it read sender ids", async () => {
    const account = await seedAccount();
    const created = await api("POST", "/api/v1/webhooks", { token: account.token, body: ENDPOINT });
    expect(created.status).toBe(201);
    const test = await createApiKey({ accountId: account.accountId, name: "sandbox", mode: "test", actor: "test" });

    for (const call of [
      await api("POST", "/api/v1/webhooks", { token: test.token, body: ENDPOINT }),
      await api("GET", "/api/v1/webhooks", { token: test.token }),
      await api("POST", `/api/v1/webhooks/${created.body.data.id}/rotate`, { token: test.token }),
      await api("DELETE", `/api/v1/webhooks/${created.body.data.id}`, { token: test.token }),
      await api("POST", `/api/v1/accounts/${account.accountId}/sender-ids`, { token: test.token, body: { sender_id: "SANDBOX" } }),
    ]) {
      expectKitError(call, 403, "FORBIDDEN");
      expect(call.body.error.description).toMatch(/test key/);
    }
    expect((await api("GET", `/api/v1/accounts/${account.accountId}/sender-ids`, { token: test.token })).status).toBe(200);
    // Nothing changed: the endpoint is there with its secret, no sender id was requested.
    expect((await api("GET", "/api/v1/webhooks", { token: account.token })).body.data).toHaveLength(1);
  });

  it("lets an owner's keys, and keys they created, through; refuses a developer's keys", async () => {
    const account = await seedAccount();
    const owner = await addUser(account, "owner");
    const developer = await addUser(account, "developer");
    const endpoint = (await api("POST", "/api/v1/webhooks", { token: account.token, body: ENDPOINT })).body.data;

    const ownersKey = await keyOf(account, `user:${owner.id}`);
    const madeByOwnersKey = (await api("POST", "/api/v1/api-tokens", { token: ownersKey, body: { name: "child" } })).body.data.token;
    const developersKey = await keyOf(account, `user:${developer.id}`);
    const madeByDevelopersKey = (await api("POST", "/api/v1/api-tokens", { token: developersKey, body: { name: "child" } })).body.data
      .token;

    expect(await ownerOnlyStatuses(account, ownersKey, endpoint.id)).toEqual([201, 200, 200, 201]);
    expect(await ownerOnlyStatuses(account, madeByOwnersKey, endpoint.id)).toEqual([201, 200, 200, 201]);
    // Developers read the endpoints in the dashboard: their keys list them too.
    expect(await ownerOnlyStatuses(account, developersKey, endpoint.id)).toEqual([403, 200, 403, 403]);
    expect(await ownerOnlyStatuses(account, madeByDevelopersKey, endpoint.id)).toEqual([403, 200, 403, 403]);
    // What a developer may do in the dashboard stays open to their keys.
    expect((await api("GET", `/api/v1/accounts/${account.accountId}/balance`, { token: developersKey })).status).toBe(200);
  });

  it("refuses the keys of an owner who became a developer, and of one who was removed", async () => {
    const account = await seedAccount();
    const [demoted, removed, acting] = [await addUser(account, "owner"), await addUser(account, "owner"), await addUser(account, "owner")];
    const endpoint = (await api("POST", "/api/v1/webhooks", { token: account.token, body: ENDPOINT })).body.data;
    const demotedKey = await keyOf(account, `user:${demoted.id}`);
    const removedKey = await keyOf(account, `user:${removed.id}`);
    expect(await ownerOnlyStatuses(account, demotedKey, endpoint.id)).toEqual([201, 200, 200, 201]);

    await changeMemberRole({ accountId: account.accountId, id: demoted.id, role: "developer", actingUserId: acting.id });
    await removeMember({ accountId: account.accountId, userId: removed.id, actingUserId: acting.id });

    expect(await ownerOnlyStatuses(account, demotedKey, endpoint.id)).toEqual([403, 200, 403, 403]);
    expect(await ownerOnlyStatuses(account, removedKey, endpoint.id)).toEqual([403, 200, 403, 403]);
  });
});
