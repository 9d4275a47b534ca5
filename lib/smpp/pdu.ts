// SMPP 3.4 PDUs: the commands a transceiver ESME and the SMSC simulator exchange, encoded to and
// decoded from their wire form (section 4 of the specification). Written for the dispatch path: a
// PDU is encoded straight into one buffer of its exact length and decoded in one pass over its
// bytes, where the `smpp` package built a keyed object per PDU and walked it several times
// (about a fifth of a dispatching process's CPU went to its PDUs). Text stays bytes here:
// short_message and message_payload are Buffers, decoded by whoever knows their data_coding.

export const COMMAND = {
  generic_nack: 0x80000000,
  bind_receiver: 0x00000001,
  bind_receiver_resp: 0x80000001,
  bind_transmitter: 0x00000002,
  bind_transmitter_resp: 0x80000002,
  submit_sm: 0x00000004,
  submit_sm_resp: 0x80000004,
  deliver_sm: 0x00000005,
  deliver_sm_resp: 0x80000005,
  unbind: 0x00000006,
  unbind_resp: 0x80000006,
  bind_transceiver: 0x00000009,
  bind_transceiver_resp: 0x80000009,
  enquire_link: 0x00000015,
  enquire_link_resp: 0x80000015,
} as const;

export type CommandName = keyof typeof COMMAND;

const COMMAND_NAMES = new Map<number, CommandName>(Object.entries(COMMAND).map(([name, id]) => [id, name as CommandName]));
const RESPONSE_BIT = 0x80000000;
export const HEADER_LENGTH = 16;
/** Longer PDUs are refused: the largest legitimate one (a message_payload) is far below it. */
export const MAX_PDU_LENGTH = 64 * 1024;

/** Optional parameters (TLVs) this gateway reads or writes; any other is skipped on decode. */
const TAG = {
  receipted_message_id: 0x001e,
  sar_msg_ref_num: 0x020c,
  sar_total_segments: 0x020e,
  sar_segment_seqnum: 0x020f,
  message_payload: 0x0424,
  message_state: 0x0427,
} as const;

export type BindFields = { system_id: string; password: string; system_type: string; interface_version: number };

/** submit_sm and deliver_sm share their body (sections 4.4.1 and 4.6.1). */
export type ShortMessageFields = {
  service_type?: string;
  source_addr_ton: number;
  source_addr_npi: number;
  source_addr: string;
  dest_addr_ton: number;
  dest_addr_npi: number;
  destination_addr: string;
  esm_class: number;
  protocol_id?: number;
  priority_flag?: number;
  schedule_delivery_time?: string;
  validity_period?: string;
  registered_delivery?: number;
  replace_if_present_flag?: number;
  data_coding: number;
  sm_default_msg_id?: number;
  short_message: Buffer;
  receipted_message_id?: string;
  message_state?: number;
  message_payload?: Buffer;
  /** SAR TLVs: a concatenated part's reference, its message's part count and its number (from 1). */
  sar_msg_ref_num?: number;
  sar_total_segments?: number;
  sar_segment_seqnum?: number;
};

/** A decoded PDU: its header, and the body of the commands that have one this gateway reads. */
export type Pdu = {
  command: CommandName | "unknown";
  commandId: number;
  status: number;
  sequence: number;
  /** bind_*: the ESME's credentials. */
  bind?: BindFields;
  /** submit_sm, deliver_sm. */
  message?: ShortMessageFields;
  /** submit_sm_resp: the SMSC's message id; bind_*_resp: the SMSC's system_id. */
  id?: string;
};

export function isResponse(commandId: number): boolean {
  return (commandId & RESPONSE_BIT) !== 0;
}

/** The response command to a request: submit_sm → submit_sm_resp; unknown ones get generic_nack. */
export function responseCommandId(commandId: number): number {
  return COMMAND_NAMES.has(commandId) && !isResponse(commandId) ? (commandId | RESPONSE_BIT) >>> 0 : COMMAND.generic_nack;
}

// ---------------------------------------------------------------------------------------------
// Encoding

function cStringLength(value: string): number {
  return Buffer.byteLength(value, "latin1") + 1;
}

class Writer {
  offset = HEADER_LENGTH;
  constructor(readonly buffer: Buffer) {}

  int8(value: number): void {
    this.buffer[this.offset++] = value & 0xff;
  }

  cString(value: string): void {
    this.offset += this.buffer.write(value, this.offset, "latin1");
    this.buffer[this.offset++] = 0;
  }

  bytes(value: Buffer): void {
    value.copy(this.buffer, this.offset);
    this.offset += value.length;
  }

  tlv(tag: number, length: number): void {
    this.buffer.writeUInt16BE(tag, this.offset);
    this.buffer.writeUInt16BE(length, this.offset + 2);
    this.offset += 4;
  }
}

function withHeader(bodyLength: number, commandId: number, status: number, sequence: number): Writer {
  const buffer = Buffer.allocUnsafe(HEADER_LENGTH + bodyLength);
  buffer.writeUInt32BE(HEADER_LENGTH + bodyLength, 0);
  buffer.writeUInt32BE(commandId >>> 0, 4);
  buffer.writeUInt32BE(status >>> 0, 8);
  buffer.writeUInt32BE(sequence >>> 0, 12);
  return new Writer(buffer);
}

/** A PDU with no body: enquire_link, unbind, their responses, generic_nack, any refusal. */
export function encodeHeaderOnly(commandId: number, sequence: number, status = 0): Buffer {
  return withHeader(0, commandId, status, sequence).buffer;
}

export function encodeBind(commandId: number, sequence: number, fields: BindFields): Buffer {
  const length = cStringLength(fields.system_id) + cStringLength(fields.password) + cStringLength(fields.system_type) + 1 + 2 + 1;
  const writer = withHeader(length, commandId, 0, sequence);
  writer.cString(fields.system_id);
  writer.cString(fields.password);
  writer.cString(fields.system_type);
  writer.int8(fields.interface_version);
  writer.int8(0); // addr_ton
  writer.int8(0); // addr_npi
  writer.cString(""); // address_range
  return writer.buffer;
}

/**
 * A response carrying one id (submit_sm_resp's message_id, bind_*_resp's system_id,
 * deliver_sm_resp's empty message_id). A refusal (status ≠ 0) has no body (section 3.3).
 */
export function encodeIdResponse(commandId: number, sequence: number, status: number, id: string): Buffer {
  if (status !== 0) return encodeHeaderOnly(commandId, sequence, status);
  const writer = withHeader(cStringLength(id), commandId, 0, sequence);
  writer.cString(id);
  return writer.buffer;
}

export function encodeShortMessage(commandId: number, sequence: number, fields: ShortMessageFields): Buffer {
  const serviceType = fields.service_type ?? "";
  const schedule = fields.schedule_delivery_time ?? "";
  const validity = fields.validity_period ?? "";
  if (fields.short_message.length > 254)
    throw new Error(`short_message of ${fields.short_message.length} octets: at most 254 (use message_payload)`);
  let length =
    cStringLength(serviceType) +
    2 +
    cStringLength(fields.source_addr) +
    2 +
    cStringLength(fields.destination_addr) +
    3 +
    cStringLength(schedule) +
    cStringLength(validity) +
    5 +
    fields.short_message.length;
  if (fields.receipted_message_id !== undefined) length += 4 + cStringLength(fields.receipted_message_id);
  if (fields.message_state !== undefined) length += 4 + 1;
  if (fields.message_payload !== undefined) length += 4 + fields.message_payload.length;
  if (fields.sar_msg_ref_num !== undefined) length += 6 + 5 + 5;

  const writer = withHeader(length, commandId, 0, sequence);
  writer.cString(serviceType);
  writer.int8(fields.source_addr_ton);
  writer.int8(fields.source_addr_npi);
  writer.cString(fields.source_addr);
  writer.int8(fields.dest_addr_ton);
  writer.int8(fields.dest_addr_npi);
  writer.cString(fields.destination_addr);
  writer.int8(fields.esm_class);
  writer.int8(fields.protocol_id ?? 0);
  writer.int8(fields.priority_flag ?? 0);
  writer.cString(schedule);
  writer.cString(validity);
  writer.int8(fields.registered_delivery ?? 0);
  writer.int8(fields.replace_if_present_flag ?? 0);
  writer.int8(fields.data_coding);
  writer.int8(fields.sm_default_msg_id ?? 0);
  writer.int8(fields.short_message.length);
  writer.bytes(fields.short_message);
  if (fields.receipted_message_id !== undefined) {
    writer.tlv(TAG.receipted_message_id, cStringLength(fields.receipted_message_id));
    writer.cString(fields.receipted_message_id);
  }
  if (fields.message_state !== undefined) {
    writer.tlv(TAG.message_state, 1);
    writer.int8(fields.message_state);
  }
  if (fields.message_payload !== undefined) {
    writer.tlv(TAG.message_payload, fields.message_payload.length);
    writer.bytes(fields.message_payload);
  }
  if (fields.sar_msg_ref_num !== undefined) {
    writer.tlv(TAG.sar_msg_ref_num, 2);
    writer.int8(fields.sar_msg_ref_num >> 8);
    writer.int8(fields.sar_msg_ref_num);
    writer.tlv(TAG.sar_total_segments, 1);
    writer.int8(fields.sar_total_segments ?? 1);
    writer.tlv(TAG.sar_segment_seqnum, 1);
    writer.int8(fields.sar_segment_seqnum ?? 1);
  }
  return writer.buffer;
}

// ---------------------------------------------------------------------------------------------
// Decoding. Lenient about a body cut short (fields past its end read as empty), as peers differ.

class Reader {
  offset = HEADER_LENGTH;
  constructor(
    private readonly buffer: Buffer,
    private readonly end: number,
  ) {}

  get remaining(): number {
    return this.end - this.offset;
  }

  int8(): number {
    return this.offset < this.end ? this.buffer[this.offset++] : 0;
  }

  int16(): number {
    if (this.offset + 2 > this.end) return 0;
    const value = this.buffer.readUInt16BE(this.offset);
    this.offset += 2;
    return value;
  }

  /** Up to the NUL (or the body's end, for a peer that left it out). */
  cString(): string {
    let stop = this.offset;
    while (stop < this.end && this.buffer[stop] !== 0) stop++;
    const value = this.buffer.toString("latin1", this.offset, stop);
    this.offset = Math.min(stop + 1, this.end);
    return value;
  }

  /** A copy, so that a field kept (a receipt's text) does not hold on to the whole chunk it came in. */
  bytes(length: number): Buffer {
    const stop = Math.min(this.offset + length, this.end);
    const value = Buffer.from(this.buffer.subarray(this.offset, stop));
    this.offset = stop;
    return value;
  }
}

/** Decodes the PDU that fills buffer[start, start + its command_length). */
export function decodePdu(buffer: Buffer, start = 0): Pdu {
  const length = buffer.readUInt32BE(start);
  const pdu: Pdu = {
    command: "unknown",
    commandId: buffer.readUInt32BE(start + 4),
    status: buffer.readUInt32BE(start + 8),
    sequence: buffer.readUInt32BE(start + 12),
  };
  pdu.command = COMMAND_NAMES.get(pdu.commandId) ?? "unknown";
  const reader = new Reader(start === 0 ? buffer : buffer.subarray(start), length);
  switch (pdu.command) {
    case "bind_receiver":
    case "bind_transmitter":
    case "bind_transceiver":
      pdu.bind = {
        system_id: reader.cString(),
        password: reader.cString(),
        system_type: reader.cString(),
        interface_version: reader.int8(),
      };
      break;
    case "submit_sm":
    case "deliver_sm":
      pdu.message = readShortMessage(reader);
      break;
    case "submit_sm_resp":
    case "bind_receiver_resp":
    case "bind_transmitter_resp":
    case "bind_transceiver_resp":
      if (reader.remaining > 0) pdu.id = reader.cString();
      break;
  }
  return pdu;
}

function readShortMessage(reader: Reader): ShortMessageFields {
  const fields: ShortMessageFields = {
    service_type: reader.cString(),
    source_addr_ton: reader.int8(),
    source_addr_npi: reader.int8(),
    source_addr: reader.cString(),
    dest_addr_ton: reader.int8(),
    dest_addr_npi: reader.int8(),
    destination_addr: reader.cString(),
    esm_class: reader.int8(),
    protocol_id: reader.int8(),
    priority_flag: reader.int8(),
    schedule_delivery_time: reader.cString(),
    validity_period: reader.cString(),
    registered_delivery: reader.int8(),
    replace_if_present_flag: reader.int8(),
    data_coding: reader.int8(),
    sm_default_msg_id: reader.int8(),
    short_message: Buffer.alloc(0),
  };
  fields.short_message = reader.bytes(reader.int8());
  while (reader.remaining >= 4) {
    const tag = reader.int16();
    const length = reader.int16();
    const value = reader.bytes(length);
    if (tag === TAG.receipted_message_id)
      fields.receipted_message_id = value.toString("latin1", 0, value.includes(0) ? value.indexOf(0) : value.length);
    else if (tag === TAG.message_state) fields.message_state = value[0];
    else if (tag === TAG.message_payload) fields.message_payload = value;
    else if (tag === TAG.sar_msg_ref_num && value.length === 2) fields.sar_msg_ref_num = value.readUInt16BE(0);
    else if (tag === TAG.sar_total_segments && value.length === 1) fields.sar_total_segments = value[0];
    else if (tag === TAG.sar_segment_seqnum && value.length === 1) fields.sar_segment_seqnum = value[0];
  }
  return fields;
}
