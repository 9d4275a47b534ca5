// SQLite's message store. Every write is a transaction under the database's one write lock: the
// balance read is the balance held, and a statement costs no round trip, so plain statements are
// the fastest way.
import type { Sql } from "@/lib/db/sql";
import type { KeyStore, MessageStore } from "../types";
import { findUnusableKeys } from "../shared/api-keys";
import { readMessages } from "../shared/read-messages";
import { loadPricing, writeSendsInTransaction } from "./write-sends-in-transaction";

export function sqliteMessageStore(database: Sql): MessageStore {
  return {
    concurrentSendBatches: 1,
    async commitSends(sends, price) {
      return writeSendsInTransaction(database, sends, price, await loadPricing(database, sends));
    },
    readMessages: (reads) => readMessages(database, reads),
  };
}

/** SQLite's single writer already orders a revoke and the transaction that uses the key. */
export function sqliteKeyStore(): KeyStore {
  return { findUnusable: (executor, keyIds, now) => findUnusableKeys(executor, keyIds, now, "") };
}
