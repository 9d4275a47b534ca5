// The lean path's own HTTP/1.1 on the server's sockets. node:http builds an IncomingMessage and a
// ServerResponse per request, a cost the API's plain exchanges need not pay (docs/decisions/0001).
// A connection starts here. Requests of the plain shape (a method the API has, an origin-form target,
// a Content-Length body or none, a Host, well-formed header lines) are read, answered and written
// here. Anything else (a path that is not the API's, chunked or expected bodies, upgrades, HEAD,
// anything malformed or oversized) is handed with every byte read of it to node:http on the same
// socket, and node:http keeps the connection from then on, so its parser decides what is valid.
import http, { type Server } from "node:http";
import type { Socket } from "node:net";
import { bodyText, type ApiResponse } from "@/lib/api/respond";

/** What the lean path answers: the request as read off the socket. */
export type LeanRequest = {
  method: string;
  /** The request target as sent (origin-form: starts with "/"). */
  target: string;
  /** Names and values alternating, as sent (node's rawHeaders). */
  rawHeaders: string[];
  /** null for a request without a body (no Content-Length). */
  body: Buffer | null;
};

export type LeanServing = {
  /** Takes plain requests whose method and target this returns true for; the rest go to node:http. */
  accepts: (method: string, target: string) => boolean;
  answer: (request: LeanRequest) => Promise<ApiResponse>;
  /** The answer when answering failed (logged there): every request is answered. */
  failed: (error: unknown) => ApiResponse;
  /** Largest body read; a larger Content-Length is answered with tooLarge() and the connection closed. */
  bodyCap: number;
  tooLarge: () => ApiResponse;
};

export type LeanConnections = {
  /** Closes connections between requests, and each busy one after its response (server shutdown). */
  closeIdle: () => void;
  /** Destroys every connection still here (the shutdown grace ran out). */
  closeAll: () => void;
};

/** node:http's defaults, kept for the connections read here. */
const MAX_HEAD_BYTES = 16 * 1024;
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
const HEADERS_TIMEOUT_MS = 66_000;
const REQUEST_TIMEOUT_MS = 300_000;
const TIMEOUT_CHECK_INTERVAL_MS = 30_000;
/** Pipelined requests read ahead while one is answered; past this the socket stops reading. */
const READ_AHEAD_BYTES = 64 * 1024;
/** A streamed body is written in chunks of about this size (one write each, not one per item). */
const CHUNK_BYTES = 64 * 1024;

const LEAN_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const HEAD_END = Buffer.from("\r\n\r\n");
const REQUEST_LINE = /^([A-Z]+) (\/[!-~]*) HTTP\/1\.([01])$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A field value of visible ASCII, spaces, tabs and obs-text: no control characters. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const UNSAFE_RESPONSE_VALUE = /[\r\n\0]/;
const REQUEST_TIMEOUT_RESPONSE = "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n";

/**
 * Takes over `server`'s connections: its own connection listener (node:http's) is kept for the
 * connections handed over. The server still listens, counts and closes every socket.
 */
export function serveLeanConnections(server: Server, serving: LeanServing): LeanConnections {
  const [nodeListener] = server.rawListeners("connection") as ((socket: Socket) => void)[];
  server.removeAllListeners("connection");
  const connections = new Set<LeanConnection>();
  const handOver = (socket: Socket) => nodeListener.call(server, socket);
  server.on("connection", (socket: Socket) => {
    connections.add(new LeanConnection(socket, serving, handOver, connections));
  });
  const timeouts = setInterval(() => {
    const now = Date.now();
    for (const connection of connections) connection.expireSlowRequest(now);
  }, TIMEOUT_CHECK_INTERVAL_MS).unref();
  return {
    closeIdle: () => {
      clearInterval(timeouts);
      for (const connection of connections) connection.closeWhenIdle();
    },
    closeAll: () => {
      for (const connection of connections) connection.socket.destroy();
    },
  };
}

type RequestHead = LeanRequest & { contentLength: number; keepAlive: boolean; http10: boolean };

class LeanConnection {
  /** Bytes read and not yet taken as a request. */
  private unread: Buffer | null = null;
  /** The request whose body is still arriving, and the body's chunks so far. */
  private head: RequestHead | null = null;
  private bodyChunks: Buffer[] = [];
  private bodyFilled = 0;
  private busy = false;
  /** No further requests: the client has ended its side, or the server is stopping. */
  private closing = false;
  /** This side has ended: whatever still arrives is dropped. */
  private ended = false;
  /** When the request now arriving began (0: none under way). */
  private requestSince = 0;

  constructor(
    readonly socket: Socket,
    private readonly serving: LeanServing,
    private readonly handOverSocket: (socket: Socket) => void,
    private readonly connections: Set<LeanConnection>,
  ) {
    socket.setNoDelay(true);
    socket.setTimeout(KEEP_ALIVE_TIMEOUT_MS);
    socket.on("data", this.onData);
    socket.on("timeout", this.onTimeout);
    socket.on("error", this.onError);
    socket.on("end", this.onEnd);
    socket.on("close", this.onClose);
  }

  private onData = (chunk: Buffer) => {
    if (this.ended) return;
    if (this.requestSince === 0) this.requestSince = Date.now();
    if (this.head) {
      this.fillBody(chunk);
      return;
    }
    this.unread = this.unread ? Buffer.concat([this.unread, chunk]) : chunk;
    if (this.busy) {
      if (this.unread.length > READ_AHEAD_BYTES) this.socket.pause();
      return;
    }
    this.readRequests();
  };

  /** Idle for the keep-alive timeout between requests: close. A request being answered is left be. */
  private onTimeout = () => {
    if (!this.busy || this.ended) this.socket.destroy();
  };

  // The server's sockets are half-open: a client that ends its side is answered, then the socket ends.
  private onEnd = () => {
    this.closing = true;
    if (!this.busy) this.endSocket();
  };

  // A client's reset or a write after it left: nothing to answer.
  private onError = () => this.socket.destroy();

  private onClose = () => {
    this.connections.delete(this);
  };

  expireSlowRequest(now: number): void {
    if (this.busy || this.requestSince === 0) return;
    const limit = this.head ? REQUEST_TIMEOUT_MS : HEADERS_TIMEOUT_MS;
    if (now - this.requestSince > limit) this.socket.end(REQUEST_TIMEOUT_RESPONSE);
  }

  closeWhenIdle(): void {
    this.closing = true;
    if (!this.busy && this.requestSince === 0) this.socket.destroy();
  }

  private endSocket(): void {
    this.ended = true;
    this.unread = null;
    this.socket.end();
    if (this.socket.isPaused()) this.socket.resume();
  }

  /** Takes every whole request in `unread`, one at a time, until one is still arriving or is answered. */
  private readRequests(): void {
    while (this.unread && !this.busy) {
      const headEnd = this.unread.indexOf(HEAD_END);
      if (headEnd < 0) {
        if (this.unread.length > MAX_HEAD_BYTES) this.handOver();
        return;
      }
      const head = headEnd <= MAX_HEAD_BYTES ? parseHead(this.unread.toString("latin1", 0, headEnd)) : null;
      if (!head || !this.serving.accepts(head.method, head.target)) {
        this.handOver();
        return;
      }
      if (head.contentLength > this.serving.bodyCap) {
        this.unread = null;
        void this.respond(this.serving.tooLarge(), { ...head, keepAlive: false });
        return;
      }
      const bodyStart = headEnd + HEAD_END.length;
      const arrived = this.unread.length - bodyStart;
      if (arrived < head.contentLength) {
        // The body is still arriving. Its chunks are kept as they come: a buffer of the declared
        // size, allocated at once, would let a client hold megabytes per connection with a header.
        this.bodyChunks = arrived > 0 ? [this.unread.subarray(bodyStart)] : [];
        this.bodyFilled = arrived;
        this.head = head;
        this.unread = null;
        return;
      }
      const bodyEnd = bodyStart + head.contentLength;
      if (head.contentLength > 0) head.body = this.unread.subarray(bodyStart, bodyEnd);
      this.unread = bodyEnd < this.unread.length ? this.unread.subarray(bodyEnd) : null;
      void this.answer(head);
    }
  }

  private fillBody(chunk: Buffer): void {
    const head = this.head!;
    const wanted = head.contentLength - this.bodyFilled;
    this.bodyChunks.push(chunk.length > wanted ? chunk.subarray(0, wanted) : chunk);
    this.bodyFilled += Math.min(chunk.length, wanted);
    if (this.bodyFilled < head.contentLength) return;
    head.body = Buffer.concat(this.bodyChunks, head.contentLength);
    this.head = null;
    this.bodyChunks = [];
    if (chunk.length > wanted) this.unread = chunk.subarray(wanted);
    void this.answer(head);
  }

  private async answer(head: RequestHead): Promise<void> {
    this.busy = true;
    this.requestSince = this.unread ? Date.now() : 0;
    const response = await this.serving.answer(head).catch(this.serving.failed);
    await this.respond(response, head);
    if (this.ended || this.socket.destroyed) return;
    this.busy = false;
    if (this.closing) {
      this.endSocket();
      return;
    }
    if (this.socket.isPaused()) this.socket.resume();
    this.readRequests();
  }

  private async respond(response: ApiResponse, head: RequestHead): Promise<void> {
    this.busy = true;
    const keepAlive = head.keepAlive && !this.closing;
    let text: string;
    try {
      text = responseHead(response, keepAlive);
    } catch (error) {
      response = this.serving.failed(error);
      text = responseHead(response, keepAlive);
    }
    const streamed = typeof response.body !== "string" && !head.http10;
    if (streamed) {
      this.socket.write(`${text}Transfer-Encoding: chunked\r\n\r\n`);
      try {
        await this.writeChunks(response.body as Iterable<string>);
      } catch (error) {
        // The head is out: cutting the connection leaves the client a body without its last chunk, never a whole-looking one.
        this.serving.failed(error);
        this.socket.destroy();
        return;
      }
    } else {
      const body = typeof response.body === "string" ? response.body : bodyText(response);
      this.socket.write(`${text}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    }
    if (!keepAlive) {
      this.endSocket();
      return;
    }
    if (this.socket.writableNeedDrain) await this.drained();
  }

  /** Chunked transfer encoding, the items gathered into chunks of about CHUNK_BYTES, each written when the socket has taken the last. */
  private async writeChunks(items: Iterable<string>): Promise<void> {
    let chunk = "";
    const flush = async () => {
      if (chunk.length === 0) return;
      this.socket.write(`${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`);
      chunk = "";
      if (this.socket.writableNeedDrain) await this.drained();
    };
    for (const item of items) {
      chunk += item;
      if (chunk.length >= CHUNK_BYTES) await flush();
      if (this.socket.destroyed) return; // the client went away: nothing more to write
    }
    await flush();
    this.socket.write("0\r\n\r\n");
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.socket.off("drain", done);
        this.socket.off("close", done);
        resolve();
      };
      this.socket.on("drain", done);
      this.socket.on("close", done);
    });
  }

  /** From here node:http reads this socket, starting with the bytes not yet taken. */
  private handOver(): void {
    this.socket.off("data", this.onData);
    this.socket.off("timeout", this.onTimeout);
    this.socket.off("error", this.onError);
    this.socket.off("end", this.onEnd);
    this.socket.off("close", this.onClose);
    this.socket.setTimeout(0);
    this.connections.delete(this);
    if (this.unread) this.socket.unshift(this.unread);
    this.unread = null;
    if (this.socket.isPaused()) this.socket.resume();
    this.handOverSocket(this.socket);
  }
}

/** Status line and headers up to the body's framing; throws on a header node:http would refuse to write. */
function responseHead(response: ApiResponse, keepAlive: boolean): string {
  let text = `HTTP/1.1 ${response.status} ${http.STATUS_CODES[response.status] ?? "Unknown"}\r\n`;
  for (const name in response.headers) {
    const value = response.headers[name];
    if (!TOKEN.test(name) || UNSAFE_RESPONSE_VALUE.test(value)) throw new Error(`invalid response header ${name}`);
    text += `${name}: ${value}\r\n`;
  }
  return `${text}Date: ${httpDate()}\r\n${keepAlive ? "Connection: keep-alive\r\nKeep-Alive: timeout=65" : "Connection: close"}\r\n`;
}

/** The request line and header lines, or null for anything the lean path leaves to node:http. */
function parseHead(text: string): RequestHead | null {
  const lines = text.split("\r\n");
  const requestLine = REQUEST_LINE.exec(lines[0]);
  if (!requestLine || !LEAN_METHODS.has(requestLine[1])) return null;
  const http10 = requestLine[3] === "0";
  const rawHeaders: string[] = [];
  let contentLength = -1;
  let hasHost = false;
  let connection = "";
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    const colon = line.indexOf(":");
    if (colon <= 0) return null;
    const name = line.slice(0, colon);
    const value = trimSpacesAndTabs(line.slice(colon + 1));
    if (!TOKEN.test(name) || !FIELD_VALUE.test(value)) return null;
    rawHeaders.push(name, value);
    switch (name.length) {
      case 4:
        if (name.toLowerCase() === "host") {
          if (hasHost) return null;
          hasHost = true;
        }
        break;
      case 6: // Expect: 100-continue is node's to answer
      case 7: // Upgrade
      case 17: // Transfer-Encoding: the lean path reads Content-Length bodies only
        if (["expect", "upgrade", "transfer-encoding"].includes(name.toLowerCase())) return null;
        break;
      case 10:
        if (name.toLowerCase() === "connection") connection += `,${value.toLowerCase()}`;
        break;
      case 14:
        if (name.toLowerCase() === "content-length") {
          if (contentLength >= 0 || !/^\d{1,15}$/.test(value)) return null;
          contentLength = Number(value);
        }
        break;
    }
  }
  if (!hasHost && !http10) return null;
  const tokens = connection.split(",").map((token) => token.trim());
  if (tokens.includes("upgrade")) return null;
  const keepAlive = http10 ? tokens.includes("keep-alive") : !tokens.includes("close");
  return {
    method: requestLine[1],
    target: requestLine[2],
    rawHeaders,
    body: null,
    contentLength: Math.max(contentLength, 0),
    keepAlive,
    http10,
  };
}

function trimSpacesAndTabs(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && (value[start] === " " || value[start] === "\t")) start++;
  while (end > start && (value[end - 1] === " " || value[end - 1] === "\t")) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

let dateSecond = 0;
let dateText = "";

/** The Date header's value, made once a second. */
function httpDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}
