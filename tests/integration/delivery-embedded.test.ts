// The embedded default, as on a fresh clone: no SMPP_* configured, so the server runs the SMSC
// simulator and the dispatcher in-process, and a send over the HTTP API goes enqueued → success →
// delivered within seconds. Servers that leave delivery to workers leave the simulator out too.
import { describe, expect, it } from "vitest";
import net from "node:net";
import { seedAccount, startApiServer, useApiServer } from "../helpers/api-test-server";
import { freePort } from "../helpers/server-process";
import { waitFor } from "../helpers/delivery";

const server = useApiServer({ SMSC_SIMULATOR: "auto", RUN_DISPATCHER: "true", SMSC_SIMULATOR_DLR_DELAY_MS: "100" });

describe("embedded delivery", () => {
  it("delivers an API send through the in-process simulator", async () => {
    const { token } = await seedAccount({ senders: ["ACME"] });
    const sent = await server.api("POST", "/api/v1/sms", { token, body: { to: "+263771234567", message: "Fresh clone", from: "ACME" } });
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ status: "enqueued", operator_response: "", delivered_at: null });
    const read = await waitFor(
      async () => {
        const call = await server.api("GET", `/api/v1/sms/${sent.body.id}`, { token });
        return call.body?.data?.delivered_at && call.body.data;
      },
      "the message to be delivered",
      20_000,
    );
    expect(read).toMatchObject({ id: sent.body.id, status: "success", operator_response: "DELIVRD" });
    expect(Date.parse(read.delivered_at)).toBeGreaterThanOrEqual(Date.parse(read.received_at));
  });

  it("leaves the simulator to the dispatching processes: a server with RUN_DISPATCHER=false does not take its port", async () => {
    const simulatorPort = await freePort();
    const servers = [];
    try {
      // Two such servers on one machine, as behind a load balancer with workers doing the delivery.
      for (let index = 0; index < 2; index++) {
        servers.push(
          await startApiServer(server.database(), {
            SMSC_SIMULATOR: "auto",
            RUN_DISPATCHER: "false",
            SMSC_SIMULATOR_PORT: String(simulatorPort),
          }),
        );
      }
      const connected = await new Promise<boolean>((resolve) => {
        const socket = net.connect(simulatorPort, "127.0.0.1", () => resolve(true)).on("error", () => resolve(false));
        socket.unref();
      });
      expect(connected).toBe(false);
    } finally {
      for (const started of servers) await started.kill();
    }
  });
});
