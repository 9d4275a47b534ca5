// Originates a mobile message through a running SMSC simulator from outside it (`npm run smsc -- mo`):
// binds as the originator transmitter and submits the message, which the simulator sends on as a
// deliver_sm to the carrier's receiving binds (smsc-simulator.ts, onOriginatorSubmit).
import net from "node:net";
import { SIMULATOR_PASSWORD } from "@/lib/smpp/carrier-config";
import { STATUS, statusName } from "@/lib/smpp/command-status";
import { COMMAND, encodeBind, encodeHeaderOnly, encodeShortMessage } from "@/lib/smpp/pdu";
import { SmppSession } from "@/lib/smpp/smpp-session";
import { encodeGsm7, encodeUcs2, segmentMessage } from "@/lib/messages/segments";
import { ORIGINATOR_SYSTEM_ID } from "./smsc-simulator";

const TIMEOUT_MS = 10_000;

export async function originateThroughSimulator(input: {
  host: string;
  port: number;
  from: string;
  to: string;
  message: string;
  /** The carrier (system_id) to deliver it to; blank: the carrier of the `from` prefix. */
  operator?: string;
}): Promise<void> {
  const socket = net.connect({ host: input.host, port: input.port });
  const session = new SmppSession(socket, { onRequest: () => undefined, onProtocolError: () => session.destroy() });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("error", reject);
  });
  try {
    const bind = await session.request(
      (sequence) =>
        encodeBind(COMMAND.bind_transmitter, sequence, {
          system_id: ORIGINATOR_SYSTEM_ID,
          password: SIMULATOR_PASSWORD,
          system_type: "",
          interface_version: 0x34,
        }),
      TIMEOUT_MS,
    );
    if (bind.status !== STATUS.ESME_ROK) throw new Error(`bind refused: ${statusName(bind.status)}`);
    const ucs2 = segmentMessage(input.message).encoding === "ucs2";
    const text = ucs2 ? encodeUcs2(input.message) : encodeGsm7(input.message);
    const response = await session.request(
      (sequence) =>
        encodeShortMessage(COMMAND.submit_sm, sequence, {
          service_type: input.operator ?? "",
          source_addr_ton: 1,
          source_addr_npi: 1,
          source_addr: input.from,
          dest_addr_ton: 1,
          dest_addr_npi: 1,
          destination_addr: input.to,
          esm_class: 0,
          data_coding: ucs2 ? 0x08 : 0x00,
          // The whole text in message_payload: the simulator splits it as a handset would.
          short_message: Buffer.alloc(0),
          message_payload: text,
        }),
      TIMEOUT_MS,
    );
    if (response.status !== STATUS.ESME_ROK) throw new Error(`refused: ${statusName(response.status)}`);
    await session.request((sequence) => encodeHeaderOnly(COMMAND.unbind, sequence), TIMEOUT_MS).catch(() => undefined);
  } finally {
    session.destroy();
  }
}
