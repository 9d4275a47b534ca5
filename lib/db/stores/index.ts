// The one place a store is chosen by engine: domains call getStores() and never ask which engine runs.
import { getDatabase } from "@/lib/db/client";
import type { Sql } from "@/lib/db/sql";
import type { Stores } from "./types";
import { sqliteMessageStore } from "./sqlite/message-store";
import { postgresMessageStore } from "./postgres/message-store";

export type * from "./types";

const storesOf = new WeakMap<Sql, Stores>();

export function storesFor(database: Sql): Stores {
  let stores = storesOf.get(database);
  if (!stores) {
    stores = database.dialect === "postgres" ? { messages: postgresMessageStore(database) } : { messages: sqliteMessageStore(database) };
    storesOf.set(database, stores);
  }
  return stores;
}

/** The stores of this process's database. */
export function getStores(): Stores {
  return storesFor(getDatabase().sql);
}
