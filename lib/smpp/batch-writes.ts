// The smpp library writes every PDU to its socket on its own, one system call apiece. Corking the
// socket until the end of the current turn of the event loop sends all the PDUs of that turn (a
// window of submits, a batch of receipt answers) in one write.
import type net from "node:net";

export function batchWritesThisTick(socket: net.Socket): void {
  if (socket.writableCorked > 0) return;
  socket.cork();
  process.nextTick(() => socket.uncork());
}
