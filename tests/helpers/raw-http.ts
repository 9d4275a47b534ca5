// HTTP/1.1 over a raw socket, for what fetch cannot send: malformed, split, pipelined or abandoned
// requests. Bytes are written as latin1, so a test string holds any byte.
import net from "node:net";

export type RawResponse = { statusLine: string; status: number; headers: Record<string, string>; body: string };

export type RawExchange = {
  responses: RawResponse[];
  /** The server closed the connection before the client ended its side. */
  closedByServer: boolean;
};

export type ExchangeOptions = {
  /** Pause after each piece. */
  pauseMs?: number;
  /** After the last piece: "end" half-closes once the server is done, "abort" resets at once. */
  finish?: "end" | "abort";
};

/** Once something has come, this much silence means the server has said all it will. */
const QUIET_MS = 400;
/** A server that has sent nothing for this long is waiting for the client. */
const SILENT_MS = 3_000;

/**
 * Writes each piece; waits until the server closes, or has answered and gone quiet, or has stayed
 * silent; then ends its side (or aborts) and reads what else comes until the server closes.
 * Returns every response, split.
 */
export async function exchange(port: number, pieces: string[], options: ExchangeOptions = {}): Promise<RawExchange> {
  const { pauseMs = 0, finish = "end" } = options;
  const socket = net.connect(port, "127.0.0.1");
  socket.setNoDelay(true);
  const received: Buffer[] = [];
  let lastData = 0;
  let closed = false;
  socket.on("data", (chunk) => {
    received.push(chunk);
    lastData = Date.now();
  });
  socket.on("error", () => undefined);
  const closing = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  socket.on("close", () => (closed = true));
  await new Promise((resolve) => socket.once("connect", resolve));
  for (const piece of pieces) {
    if (closed) break;
    socket.write(Buffer.from(piece, "latin1"));
    if (pauseMs > 0) await sleep(pauseMs);
  }
  const waitedSince = Date.now();
  while (!closed && (lastData === 0 ? Date.now() - waitedSince < SILENT_MS : Date.now() - lastData < QUIET_MS)) await sleep(20);
  const closedByServer = closed;
  if (finish === "abort") socket.resetAndDestroy();
  else if (!closed) {
    socket.end();
    await Promise.race([closing, sleep(SILENT_MS)]);
  }
  socket.destroy();
  await closing;
  return { responses: parseResponses(Buffer.concat(received).toString("latin1")), closedByServer };
}

/** Until the server closes the connection: for requests that end it themselves (Connection: close, HTTP/1.0). */
export async function exchangeUntilClosed(port: number, pieces: string[], pauseMs = 0): Promise<RawResponse[]> {
  const socket = net.connect(port, "127.0.0.1");
  socket.setNoDelay(true);
  const received: Buffer[] = [];
  socket.on("data", (chunk) => received.push(chunk));
  const closed = new Promise<void>((resolve, reject) => {
    socket.on("close", () => resolve());
    socket.on("error", reject);
  });
  await new Promise((resolve) => socket.once("connect", resolve));
  for (const piece of pieces) {
    socket.write(Buffer.from(piece, "latin1"));
    if (pauseMs > 0) await sleep(pauseMs);
  }
  await closed;
  return parseResponses(Buffer.concat(received).toString("latin1"));
}

export function parseResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  while (rest.length > 0) {
    const headEnd = rest.indexOf("\r\n\r\n");
    if (headEnd < 0) {
      responses.push({ statusLine: rest, status: 0, headers: {}, body: "" });
      break;
    }
    const [statusLine, ...lines] = rest.slice(0, headEnd).split("\r\n");
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
    );
    const status = Number(statusLine.split(" ")[1]);
    rest = rest.slice(headEnd + 4);
    let body = "";
    if (headers["transfer-encoding"] === "chunked") {
      for (;;) {
        const sizeEnd = rest.indexOf("\r\n");
        if (sizeEnd < 0) break;
        const size = parseInt(rest.slice(0, sizeEnd), 16);
        body += rest.slice(sizeEnd + 2, sizeEnd + 2 + size);
        rest = rest.slice(sizeEnd + 2 + size + 2);
        if (size === 0 || Number.isNaN(size)) break;
      }
    } else if (headers["content-length"] !== undefined) {
      const length = Number(headers["content-length"]);
      body = rest.slice(0, length);
      rest = rest.slice(length);
    } else if (status >= 200 && status !== 204 && status !== 304) {
      // Neither framing: the body runs to the end of the connection.
      body = rest;
      rest = "";
    }
    responses.push({ statusLine, status, headers, body });
  }
  return responses;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
