// The one place a store is chosen by engine: domains call getStores() and never ask which engine runs.
import { getDatabase } from "@/lib/db/client";
import type { Sql } from "@/lib/db/sql";
import type { Stores } from "./types";
import { sqliteKeyStore, sqliteMessageStore } from "./sqlite/message-store";
import { sqliteDeliveryStore, sqliteWebhookStore } from "./sqlite/delivery-store";
import { postgresKeyStore, postgresMessageStore } from "./postgres/message-store";
import { postgresDeliveryStore, postgresWebhookStore } from "./postgres/delivery-store";

export type * from "./types";

const storesOf = new WeakMap<Sql, Stores>();

function openStores(database: Sql): Stores {
  if (database.dialect === "postgres") {
    return {
      messages: postgresMessageStore(database),
      delivery: postgresDeliveryStore(database),
      webhooks: postgresWebhookStore(database),
      keys: postgresKeyStore(),
    };
  }
  return {
    messages: sqliteMessageStore(database),
    delivery: sqliteDeliveryStore(database),
    webhooks: sqliteWebhookStore(database),
    keys: sqliteKeyStore(),
  };
}

function storesFor(database: Sql): Stores {
  let stores = storesOf.get(database);
  if (!stores) {
    stores = openStores(database);
    storesOf.set(database, stores);
  }
  return stores;
}

/** The stores of this process's database. */
export function getStores(): Stores {
  return storesFor(getDatabase().sql);
}
