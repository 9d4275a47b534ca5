// Types for the parts of the `smpp` package (0.5.x, plain JavaScript) that the PDU tests use as an
// independent encoder and decoder (tests/unit/smpp-pdu.test.ts); Tumira itself speaks SMPP with lib/smpp/pdu.ts.
declare module "smpp" {
  import { EventEmitter } from "node:events";
  import net from "node:net";

  namespace smpp {
    /** A PDU's fields are its SMPP parameters and TLVs by name (submit_sm's destination_addr, receipted_message_id…). */
    class PDU {
      constructor(command: string | Buffer, options?: Record<string, unknown>);
      command: string;
      command_id: number;
      command_status: number;
      sequence_number: number;
      [field: string]: any;
      isResponse(): boolean;
      response(options?: Record<string, unknown>): PDU;
    }

    class Session extends EventEmitter {
      socket: net.Socket;
      /** Returns false when the socket is not writable. */
      send(pdu: PDU, responseCallback?: (response: PDU) => void, sendCallback?: (pdu: PDU) => void): boolean;
      close(callback?: () => void): void;
      destroy(callback?: () => void): void;
    }

    class Server extends net.Server {
      sessions: Session[];
    }

    function connect(options: { host: string; port: number }, listener?: () => void): Session;
    function createServer(options: Record<string, unknown>, listener?: (session: Session) => void): Server;
    /** Command status names to values (ESME_ROK, ESME_RTHROTTLED…). */
    const errors: Record<string, number>;
  }
  export = smpp;
}
