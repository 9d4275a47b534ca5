import net from "node:net";
import { describe, expect, it } from "vitest";
import { inList, valuesTable } from "@/lib/db/batch-lists";
import { batchWritesThisTick } from "@/lib/smpp/batch-writes";

describe("batch lists", () => {
  it("pads an IN list to a power of two with copies of its last value", () => {
    expect(inList(["a"])).toEqual({ text: "(?)", params: ["a"] });
    expect(inList(["a", "b", "c"])).toEqual({ text: "(?, ?, ?, ?)", params: ["a", "b", "c", "c"] });
    expect(inList(["a", "b", "c", "d"]).params).toEqual(["a", "b", "c", "d"]);
  });

  it("writes a VALUES table with bare placeholders on SQLite and typed ones on PostgreSQL", () => {
    const rows = [
      ["m1", "2026-01-01T00:00:00.000+00:00"],
      ["m2", null],
      ["m3", "2026-01-01T00:00:01.000+00:00"],
    ];
    const sqlite = valuesTable("sqlite", ["text", "timestamp"], rows);
    expect(sqlite.text).toBe("(VALUES (?, ?), (?, ?), (?, ?), (?, ?)) AS v");
    expect(sqlite.params).toEqual([...rows.flat(), ...rows[2]]);
    const postgres = valuesTable("postgres", ["text", "timestamp"], rows.slice(0, 1));
    expect(postgres.text).toBe("(VALUES (CAST(? AS TEXT), CAST(? AS TIMESTAMP(3)))) AS v");
  });

  it("refuses an empty batch and one past the limit", () => {
    expect(() => inList([])).toThrow(RangeError);
    expect(() => valuesTable("sqlite", ["text"], Array.from({ length: 4097 }, (_, index) => [String(index)]))).toThrow(RangeError);
  });
});

describe("batched socket writes", () => {
  it("holds a turn's writes and sends them together at its end", async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const received: Buffer[] = [];
    const accepted = new Promise<net.Socket>((resolve) => server.once("connection", resolve));
    const client = net.connect((server.address() as net.AddressInfo).port, "127.0.0.1");
    await new Promise((resolve) => client.once("connect", resolve));
    const peer = await accepted;
    peer.on("data", (chunk: Buffer) => received.push(chunk));

    batchWritesThisTick(client);
    batchWritesThisTick(client); // a second call in the same turn adds no second cork
    client.write("one,");
    client.write("two");
    expect(client.writableCorked).toBe(1);
    expect(client.writableLength).toBe(7);
    await new Promise((resolve) => setImmediate(resolve));
    expect(client.writableCorked).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(Buffer.concat(received).toString()).toBe("one,two");

    client.destroy();
    peer.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
});
