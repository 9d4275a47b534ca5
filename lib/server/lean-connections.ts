// The lean path's own HTTP/1.1 on the server's sockets (docs/decisions/0001-own-http1-path.md).
// A connection starts here. Requests of the plain shape (a method the API has, an origin-form target,
// a Content-Length body or none, a Host, well-formed CRLF-ended header lines) are read, answered and
// written here. Anything else (a path that is not the API's, chunked or expected bodies, upgrades,
// HEAD, anything malformed or oversized) is handed with every byte read of it to node:http on the same
// socket, and node:http keeps the connection from then on, so its parser decides what is valid.
// What a client sees is what node:http would show it: tests/integration/lean-http-differential.test.ts
// sends the same requests to a server without this path and compares.
import http, { type Server } from "node:http";
import type { Socket } from "node:net";
import { bodyText, collectBody, isAsyncBody, type ApiResponse } from "@/lib/api/respond";

/** What the lean path answers: the request as read off the socket. */
export type LeanRequest = {
  method: string;
  /** The request target as sent (origin-form: starts with "/"). */
  target: string;
  /** Names and values alternating, as sent (node's rawHeaders). */
  rawHeaders: string[];
  /** The declared Content-Length; 0 without one. */
  bodyLength: number;
  /**
   * The whole body once it has arrived; rejects if the client leaves first. Until it is called at
   * most READ_AHEAD_BYTES of the body are held: an answer can refuse a request on its head alone.
   */
  readBody: () => Promise<Buffer>;
};

export type LeanServing = {
  /** Takes plain requests whose method and target this returns true for; the rest go to node:http. */
  accepts: (method: string, target: string) => boolean;
  answer: (request: LeanRequest) => Promise<ApiResponse>;
  /** The answer when answering failed (logged there): every request is answered. */
  failed: (error: unknown) => ApiResponse;
  /**
   * A request answered without reading its body: a body of up to this many bytes is read and dropped
   * and the connection kept, as node:http does; past it the connection closes after the answer.
   */
  unreadBodyLimit: number;
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
/** Pipelined requests, or a body not yet asked for, read ahead while one is answered; past this the socket stops reading. */
const READ_AHEAD_BYTES = 64 * 1024;
/** A streamed body is written in chunks of about this size (one write each, not one per item). */
const CHUNK_BYTES = 64 * 1024;

const LEAN_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const HEAD_END = Buffer.from("\r\n\r\n");
const NO_BODY = Buffer.alloc(0);
const REQUEST_LINE = /^([A-Z]+) (\/[!-~]*) HTTP\/1\.([01])$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A field value of visible ASCII, spaces, tabs and obs-text: no control characters. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/**
 * In a head still arriving, what node:http's parser refuses at once (or, for a bare LF, takes as a
 * line end): a control character, a CR not followed by LF, an LF not preceded by CR.
 */
const UNFINISHED_HEAD_REFUSED = /[^\t\r\n\x20-\x7e\x80-\xff]|\r[^\n]|(?:^|[^\r])\n/;
const UNSAFE_RESPONSE_VALUE = /[\r\n\0]/;
/** node:http's own answers, byte for byte. */
const BAD_REQUEST_RESPONSE = "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n";
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

type RequestHead = { method: string; target: string; rawHeaders: string[]; contentLength: number; keepAlive: boolean; http10: boolean };

/** The body of the request being answered, taken off the socket as it arrives. */
class RequestBody {
  /** Bytes still to come off the socket. */
  left: number;
  /** Bytes held (none once dropped). */
  held = 0;
  /** Asked for by the answer: held whole, however long. */
  wanted = false;
  private chunks: Buffer[] = [];
  private dropped = false;
  private gone = false;
  private waiter: { resolve: (body: Buffer) => void; reject: (error: Error) => void } | null = null;

  constructor(readonly length: number) {
    this.left = length;
  }

  /** Takes this body's part of `chunk`; returns what follows it (the next request's bytes). */
  take(chunk: Buffer): Buffer {
    const taken = Math.min(this.left, chunk.length);
    this.left -= taken;
    if (!this.dropped && taken > 0) {
      this.chunks.push(taken === chunk.length ? chunk : chunk.subarray(0, taken));
      this.held += taken;
    }
    if (this.left === 0 && this.waiter) this.waiter.resolve(this.whole());
    return taken === chunk.length ? NO_BODY : chunk.subarray(taken);
  }

  read(): Promise<Buffer> {
    this.wanted = true;
    if (this.left === 0) return Promise.resolve(this.whole());
    if (this.gone) return Promise.reject(clientGone());
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  /** Answered without it: what is held is let go, what still arrives is thrown away. */
  drop(): void {
    this.dropped = true;
    this.chunks = [];
    this.held = 0;
  }

  /** The client left before the end: a read waiting for it, or made later, rejects. */
  abandon(): void {
    if (this.left === 0) return;
    this.gone = true;
    this.waiter?.reject(clientGone());
    this.waiter = null;
  }

  private whole(): Buffer {
    const body = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.length);
    this.chunks = [];
    return body;
  }
}

function clientGone(): Error {
  return new Error("the client left before the end of the request body");
}

class LeanConnection {
  /** Bytes read and not yet taken as a request. */
  private unread: Buffer | null = null;
  /** The body of the request being answered, or of the one answered last while it is still being dropped. */
  private body: RequestBody | null = null;
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
    const rest = this.bodyArriving() ? this.body!.take(chunk) : chunk;
    if (rest.length > 0) this.unread = this.unread ? Buffer.concat([this.unread, rest]) : rest;
    if (this.busy) {
      if (this.heldAhead() > READ_AHEAD_BYTES) this.socket.pause();
      return;
    }
    if (this.body?.left === 0) {
      // The body of a request answered without it has been dropped to its end.
      this.body = null;
      if (!this.unread) this.requestSince = 0;
      if (this.closing) {
        this.endSocket();
        return;
      }
    }
    this.readRequests();
  };

  /** Idle for the keep-alive timeout between requests: close. A request being answered is left be. */
  private onTimeout = () => {
    if (!this.busy || this.ended) this.socket.destroy();
  };

  // The server's sockets are half-open: a client that ends its side is answered, then the socket ends.
  // A request cut short by the end is node:http's 400.
  private onEnd = () => {
    this.closing = true;
    if (this.bodyArriving()) {
      this.body!.abandon();
      this.endWith(BAD_REQUEST_RESPONSE);
      return;
    }
    if (this.busy) return;
    if (this.unread) this.endWith(BAD_REQUEST_RESPONSE);
    else this.endSocket();
  };

  // A client's reset or a write after it left: nothing to answer.
  private onError = () => this.socket.destroy();

  private onClose = () => {
    this.body?.abandon();
    this.connections.delete(this);
  };

  expireSlowRequest(now: number): void {
    if (this.requestSince === 0 || this.ended) return;
    const bodyArriving = this.bodyArriving();
    if (this.busy && !bodyArriving) return;
    if (now - this.requestSince <= (bodyArriving ? REQUEST_TIMEOUT_MS : HEADERS_TIMEOUT_MS)) return;
    this.body?.abandon();
    this.endWith(REQUEST_TIMEOUT_RESPONSE);
  }

  closeWhenIdle(): void {
    this.closing = true;
    if (!this.busy && this.requestSince === 0) this.socket.destroy();
  }

  private bodyArriving(): boolean {
    return this.body !== null && this.body.left > 0;
  }

  /** Bytes held that no answer has asked for yet: pipelined requests and a body not yet read. */
  private heldAhead(): number {
    return (this.unread?.length ?? 0) + (this.body && !this.body.wanted ? this.body.held : 0);
  }

  private endWith(response: string): void {
    this.ended = true;
    this.unread = null;
    this.socket.end(response);
    if (this.socket.isPaused()) this.socket.resume();
  }

  private endSocket(): void {
    this.ended = true;
    this.unread = null;
    this.socket.end();
    if (this.socket.isPaused()) this.socket.resume();
  }

  /** Takes every whole head in `unread`, one at a time, until one is still arriving or is answered. */
  private readRequests(): void {
    while (this.unread && !this.busy) {
      const headEnd = this.unread.indexOf(HEAD_END);
      if (headEnd < 0) {
        if (this.unread.length > MAX_HEAD_BYTES || UNFINISHED_HEAD_REFUSED.test(this.unread.toString("latin1"))) this.handOver();
        return;
      }
      const head = headEnd <= MAX_HEAD_BYTES ? parseHead(this.unread.toString("latin1", 0, headEnd)) : null;
      // Bytes after a request that closes the connection: node:http's parser refuses them with a 400
      // (its answer to the request then never written), so node:http reads this connection.
      const closingEarly = head !== null && !head.keepAlive && this.unread.length > headEnd + HEAD_END.length + head.contentLength;
      if (!head || closingEarly || !this.serving.accepts(head.method, head.target)) {
        this.handOver();
        return;
      }
      let rest: Buffer = this.unread.subarray(headEnd + HEAD_END.length);
      this.body = head.contentLength > 0 ? new RequestBody(head.contentLength) : null;
      if (this.body) rest = this.body.take(rest);
      this.unread = rest.length > 0 ? rest : null;
      void this.answer(head);
    }
  }

  private async answer(head: RequestHead): Promise<void> {
    this.busy = true;
    const body = this.body;
    if (!this.bodyArriving()) this.requestSince = this.unread ? Date.now() : 0;
    const request: LeanRequest = {
      method: head.method,
      target: head.target,
      rawHeaders: head.rawHeaders,
      bodyLength: head.contentLength,
      readBody: () => {
        if (!body) return Promise.resolve(NO_BODY);
        if (this.socket.isPaused()) this.socket.resume();
        return body.read();
      },
    };
    let response: ApiResponse;
    try {
      response = await this.serving.answer(request);
    } catch (error) {
      if (this.ended || this.socket.destroyed) return;
      response = this.serving.failed(error);
    }
    if (this.ended || this.socket.destroyed) return; // the client left, or the request timed out
    let keepAlive = head.keepAlive;
    if (body && !body.wanted) {
      if (body.length > this.serving.unreadBodyLimit) keepAlive = false;
      else body.drop();
    }
    await this.respond(response, head, keepAlive);
    if (this.ended || this.socket.destroyed) return;
    this.busy = false;
    this.body = this.bodyArriving() ? body : null;
    this.requestSince = this.unread || this.body ? Date.now() : 0;
    if (this.socket.isPaused()) this.socket.resume();
    this.readRequests();
  }

  private async respond(response: ApiResponse, head: RequestHead, keepAlive: boolean): Promise<void> {
    keepAlive &&= !this.closing;
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
        await this.writeChunks(response.body as Iterable<string> | AsyncIterable<string>);
      } catch (error) {
        // The head is out: cutting the connection leaves the client a body without its last chunk, never a whole-looking one.
        this.serving.failed(error);
        this.socket.destroy();
        return;
      }
    } else {
      let body: string;
      try {
        body = isAsyncBody(response.body) ? await collectBody(response.body) : bodyText(response);
      } catch (error) {
        this.serving.failed(error);
        this.socket.destroy();
        return;
      }
      this.socket.write(`${text}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    }
    if (!keepAlive) {
      this.endSocket();
      return;
    }
    if (this.socket.writableNeedDrain) await this.drained();
  }

  /** Chunked transfer encoding, the items gathered into chunks of about CHUNK_BYTES, each written when the socket has taken the last. */
  private async writeChunks(items: Iterable<string> | AsyncIterable<string>): Promise<void> {
    let chunk = "";
    const flush = async () => {
      if (chunk.length === 0) return;
      this.socket.write(`${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`);
      chunk = "";
      if (this.socket.writableNeedDrain) await this.drained();
    };
    if (Symbol.asyncIterator in items) {
      for await (const item of items) {
        chunk += item;
        if (chunk.length >= CHUNK_BYTES) await flush();
        if (this.socket.destroyed) return; // the client went away: nothing more to write (the iterator is closed)
      }
    } else {
      // Without an await per item: a bulk answer has 100,000 of them.
      for (const item of items) {
        chunk += item;
        if (chunk.length >= CHUNK_BYTES) await flush();
        if (this.socket.destroyed) return; // the client went away: nothing more to write
      }
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
