// SMPP 3.4 PDUs (lib/smpp/pdu.ts) against an independent encoder and decoder, the `smpp` package
// (a dev dependency kept for this), and the session's framing over a real loopback socket.
import net from "node:net";
import smpp from "smpp";
import { afterEach, describe, expect, it } from "vitest";
import {
  COMMAND,
  decodePdu,
  encodeBind,
  encodeHeaderOnly,
  encodeIdResponse,
  encodeShortMessage,
  responseCommandId,
  type ShortMessageFields,
} from "@/lib/smpp/pdu";
import { SmppRequestError, SmppSession } from "@/lib/smpp/smpp-session";

const SUBMIT: ShortMessageFields = {
  source_addr_ton: 5,
  source_addr_npi: 0,
  source_addr: "TUMIRA",
  dest_addr_ton: 1,
  dest_addr_npi: 1,
  destination_addr: "263771234567",
  esm_class: 0x40,
  registered_delivery: 1,
  data_coding: 8,
  short_message: Buffer.from([0x05, 0x00, 0x03, 0x2a, 0x02, 0x01, 0x00, 0x48, 0x00, 0x69]),
};

describe("SMPP PDUs", () => {
  it("encodes submit_sm byte for byte as the smpp package does", () => {
    const ours = encodeShortMessage(COMMAND.submit_sm, 7, SUBMIT);
    const theirs = new smpp.PDU("submit_sm", { ...SUBMIT, sequence_number: 7 }).toBuffer();
    expect(ours.equals(theirs)).toBe(true);
  });

  it("encodes a bind, a response with an id, a refusal and a bare request as the package does", () => {
    const bind = { system_id: "econet", password: "tumira", system_type: "", interface_version: 0x34 };
    expect(
      encodeBind(COMMAND.bind_transceiver, 1, bind).equals(new smpp.PDU("bind_transceiver", { ...bind, sequence_number: 1 }).toBuffer()),
    ).toBe(true);
    expect(
      encodeIdResponse(COMMAND.submit_sm_resp, 9, 0, "1a2b").equals(
        new smpp.PDU("submit_sm_resp", { message_id: "1a2b", sequence_number: 9 }).toBuffer(),
      ),
    ).toBe(true);
    expect(
      encodeIdResponse(COMMAND.submit_sm_resp, 9, 0x58, "").equals(
        new smpp.PDU("submit_sm_resp", { command_status: 0x58, sequence_number: 9 }).toBuffer(),
      ),
    ).toBe(true);
    expect(encodeHeaderOnly(COMMAND.enquire_link, 3).equals(new smpp.PDU("enquire_link", { sequence_number: 3 }).toBuffer())).toBe(true);
  });

  it("decodes a receipt the package encodes, TLVs included", () => {
    const text = "id:1a2b sub:001 dlvrd:001 submit date:2501151230 done date:2501151231 stat:DELIVRD err:000 text:Hi";
    const wire = new smpp.PDU("deliver_sm", {
      sequence_number: 11,
      source_addr: "263771234567",
      destination_addr: "TUMIRA",
      esm_class: 0x04,
      short_message: Buffer.from(text, "ascii"),
      receipted_message_id: "1a2b",
      message_state: 2,
    }).toBuffer();
    const pdu = decodePdu(wire);
    expect(pdu).toMatchObject({ command: "deliver_sm", status: 0, sequence: 11 });
    expect(pdu.message).toMatchObject({
      source_addr: "263771234567",
      destination_addr: "TUMIRA",
      esm_class: 4,
      receipted_message_id: "1a2b",
      message_state: 2,
    });
    expect(pdu.message!.short_message.toString("latin1")).toBe(text);
  });

  it("decodes what the package decodes from our submit_sm, and our decode of it round-trips", () => {
    const wire = encodeShortMessage(COMMAND.submit_sm, 5, SUBMIT);
    const theirs = new smpp.PDU(wire);
    expect(theirs).toMatchObject({
      command: "submit_sm",
      sequence_number: 5,
      destination_addr: "263771234567",
      data_coding: 8,
      registered_delivery: 1,
    });
    const ours = decodePdu(wire).message!;
    expect(encodeShortMessage(COMMAND.submit_sm, 5, ours).equals(wire)).toBe(true);
  });

  it("reads a body cut short as empty fields instead of throwing, and names unknown commands", () => {
    const whole = encodeShortMessage(COMMAND.deliver_sm, 1, SUBMIT);
    const cut = Buffer.from(whole.subarray(0, 30));
    cut.writeUInt32BE(30, 0);
    expect(decodePdu(cut).message).toMatchObject({ source_addr: "TUMIRA", destination_addr: "26", short_message: Buffer.alloc(0) });
    const unknown = encodeHeaderOnly(0x00000103, 4);
    expect(decodePdu(unknown).command).toBe("unknown");
    expect(responseCommandId(0x00000103)).toBe(COMMAND.generic_nack);
    expect(responseCommandId(COMMAND.submit_sm)).toBe(COMMAND.submit_sm_resp);
  });

  it("refuses a short_message that does not fit its one-octet length", () => {
    expect(() => encodeShortMessage(COMMAND.submit_sm, 1, { ...SUBMIT, short_message: Buffer.alloc(255) })).toThrow(/at most 254/);
  });
});

describe("SMPP session over a loopback socket", () => {
  const cleanup: (() => void)[] = [];
  afterEach(() => {
    for (const close of cleanup.splice(0)) close();
  });

  /** A server whose raw socket the test writes to, and a client session connected to it. */
  async function connectedPair(
    onRequest?: () => void,
  ): Promise<{ server: net.Socket; client: SmppSession; requests: number[]; errors: Error[] }> {
    const requests: number[] = [];
    const errors: Error[] = [];
    let accepted: (socket: net.Socket) => void = () => undefined;
    const serverSocket = new Promise<net.Socket>((resolve) => (accepted = resolve));
    const listener = net.createServer((socket) => accepted(socket));
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    const socket = net.connect({ port: (listener.address() as net.AddressInfo).port, host: "127.0.0.1" });
    const client = new SmppSession(socket, {
      onRequest: (pdu) => {
        onRequest?.();
        requests.push(pdu.sequence);
      },
      onProtocolError: (error) => errors.push(error),
    });
    const server = await serverSocket;
    cleanup.push(() => {
      socket.destroy();
      server.destroy();
      listener.close();
    });
    return { server, client, requests, errors };
  }

  it("matches responses to requests by sequence, across split and joined chunks", async () => {
    const { server, client, requests } = await connectedPair();
    const sent: Buffer[] = [];
    server.on("data", (chunk: Buffer) => sent.push(chunk));
    const first = client.request((sequence) => encodeHeaderOnly(COMMAND.enquire_link, sequence), 5000);
    const second = client.request((sequence) => encodeShortMessage(COMMAND.submit_sm, sequence, SUBMIT), 5000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Both requests left in one write, numbered 1 and 2.
    expect(sent).toHaveLength(1);
    expect([decodePdu(sent[0]).sequence, decodePdu(sent[0], 16).sequence]).toEqual([1, 2]);

    const responses = Buffer.concat([
      encodeIdResponse(COMMAND.submit_sm_resp, 2, 0, "abc"),
      encodeHeaderOnly(COMMAND.enquire_link_resp, 1),
      encodeHeaderOnly(COMMAND.enquire_link, 77),
    ]);
    server.write(responses.subarray(0, 7));
    await new Promise((resolve) => setTimeout(resolve, 20));
    server.write(responses.subarray(7));
    expect((await second).id).toBe("abc");
    expect((await first).command).toBe("enquire_link_resp");
    expect(requests).toEqual([77]);
  });

  it("fails a request that gets no answer in time, and every pending one when the link drops", async () => {
    const { server, client } = await connectedPair();
    await expect(client.request((sequence) => encodeHeaderOnly(COMMAND.enquire_link, sequence), 30)).rejects.toMatchObject({
      reason: "timeout",
    });
    const pending = client.request((sequence) => encodeHeaderOnly(COMMAND.enquire_link, sequence), 5000);
    server.destroy();
    await expect(pending).rejects.toBeInstanceOf(SmppRequestError);
  });

  it("closes a connection whose bytes are not SMPP", async () => {
    const { server, client, errors } = await connectedPair();
    const closed = new Promise((resolve) => client.socket.once("close", resolve));
    server.write(Buffer.from("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
    await closed;
    expect(client.writable).toBe(false);
    expect(errors[0]?.message).toMatch(/PDU length/);
  });

  it("closes the connection, not the process, when a request's handler throws", async () => {
    const { server, client, errors } = await connectedPair(() => {
      throw new Error("handler bug");
    });
    const closed = new Promise((resolve) => client.socket.once("close", resolve));
    server.write(encodeHeaderOnly(COMMAND.enquire_link, 1));
    await closed;
    expect(errors.map((error) => error.message)).toEqual(["handler bug"]);
  });
});
