// One SMPP connection, either end: frames the byte stream into PDUs (lib/smpp/pdu.ts), numbers
// requests and matches their responses by sequence number, and writes everything one turn of the
// event loop produced (a window of submits, a batch of receipt answers) in one system call.
// Requests time out on one sweeping timer per session rather than a timer per request.
import type net from "node:net";
import { decodePdu, HEADER_LENGTH, isResponse, MAX_PDU_LENGTH, type Pdu } from "./pdu";

/** A request that got no response: the connection closed, or the peer did not answer in time. */
export class SmppRequestError extends Error {
  constructor(readonly reason: "closed" | "timeout" | "not-writable") {
    super(reason === "timeout" ? "no response in time" : reason === "closed" ? "connection closed" : "connection not writable");
  }
}

type Pending = { resolve: (response: Pdu) => void; reject: (error: SmppRequestError) => void; deadline: number };

/** Sequence numbers run 1…0x7FFFFFFF (section 3.2). */
const MAX_SEQUENCE = 0x7fffffff;

export class SmppSession {
  private lastSequence = 0;
  private readonly pending = new Map<number, Pending>();
  private unsent: Buffer[] = [];
  private partial: Buffer | null = null;
  private sweeper: NodeJS.Timeout | undefined;
  private closed = false;

  /**
   * onRequest gets every request the peer sends (answer it with `send`); onProtocolError a byte
   * stream that is not SMPP, or a request onRequest threw on, after which the connection is destroyed.
   */
  constructor(
    readonly socket: net.Socket,
    private readonly handlers: { onRequest: (pdu: Pdu) => void; onProtocolError: (error: Error) => void },
  ) {
    socket.on("data", (chunk: Buffer) => this.receive(chunk));
    socket.on("close", () => {
      this.closed = true;
      clearInterval(this.sweeper);
      this.failPending(new SmppRequestError("closed"));
    });
  }

  get writable(): boolean {
    return !this.closed && this.socket.writable;
  }

  /** Queues a PDU for this turn's write; false when the connection can no longer take it. */
  send(pdu: Buffer): boolean {
    if (!this.writable) return false;
    this.unsent.push(pdu);
    if (this.unsent.length === 1) process.nextTick(() => this.flush());
    return true;
  }

  /** Sends the request `encode` builds under a fresh sequence number; resolves with its response. */
  request(encode: (sequence: number) => Buffer, timeoutMs: number): Promise<Pdu> {
    this.lastSequence = this.lastSequence >= MAX_SEQUENCE ? 1 : this.lastSequence + 1;
    const sequence = this.lastSequence;
    return new Promise((resolve, reject) => {
      if (!this.send(encode(sequence))) return reject(new SmppRequestError("not-writable"));
      this.pending.set(sequence, { resolve, reject, deadline: performance.now() + timeoutMs });
      this.sweepEvery(Math.max(5, Math.min(1000, timeoutMs / 10)));
    });
  }

  /** Ends the connection once what is queued has been written. */
  close(): void {
    this.flush();
    this.socket.end();
  }

  destroy(): void {
    this.socket.destroy();
  }

  private flush(): void {
    if (this.unsent.length === 0) return;
    const chunks = this.unsent;
    this.unsent = [];
    if (this.socket.writable) this.socket.write(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  }

  private receive(chunk: Buffer): void {
    const buffer = this.partial ? Buffer.concat([this.partial, chunk]) : chunk;
    let offset = 0;
    while (buffer.length - offset >= HEADER_LENGTH) {
      const length = buffer.readUInt32BE(offset);
      if (length < HEADER_LENGTH || length > MAX_PDU_LENGTH) {
        this.partial = null;
        this.handlers.onProtocolError(new Error(`PDU length ${length} outside ${HEADER_LENGTH}…${MAX_PDU_LENGTH}`));
        this.socket.destroy();
        return;
      }
      if (buffer.length - offset < length) break;
      const pdu = decodePdu(buffer, offset);
      offset += length;
      try {
        if (isResponse(pdu.commandId)) this.settle(pdu);
        else this.handlers.onRequest(pdu);
      } catch (error) {
        // A PDU its handler cannot take ends this connection, never the process.
        this.handlers.onProtocolError(error as Error);
        this.socket.destroy();
        return;
      }
      if (this.closed) return;
    }
    this.partial = offset < buffer.length ? buffer.subarray(offset) : null;
  }

  /** A response nobody waits for (late, after its timeout) is dropped. */
  private settle(response: Pdu): void {
    const waiting = this.pending.get(response.sequence);
    if (!waiting) return;
    this.pending.delete(response.sequence);
    waiting.resolve(response);
  }

  private sweepEvery(ms: number): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => {
      const now = performance.now();
      for (const [sequence, waiting] of this.pending) {
        if (waiting.deadline > now) continue;
        this.pending.delete(sequence);
        waiting.reject(new SmppRequestError("timeout"));
      }
      if (this.pending.size === 0) {
        clearInterval(this.sweeper);
        this.sweeper = undefined;
      }
    }, ms);
    this.sweeper.unref();
  }

  private failPending(error: SmppRequestError): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const { reject } of waiting) reject(error);
  }
}
