// Messages as CSV: the API's export and the dashboard's "Export CSV" write the same columns, each
// message's values serialised through the one Sms schema, read and written a chunk at a time.
import { csvLine } from "@/lib/csv";
import { serializeSms, smsSchema } from "./serialize-sms";
import { everyMessage, type FoundMessage, type MessageSearch } from "./search-messages";

/** Delivery control fields stay out of the CSV: its columns are a published format. */
const NOT_IN_CSV = new Set(["priority", "send_at", "validity_period"]);

/** The Sms object's fields in its order, then the bulk send the message belongs to. */
export const MESSAGE_CSV_COLUMNS = [...Object.keys(smsSchema.shape).filter((column) => !NOT_IN_CSV.has(column)), "bulk_id"] as const;

function messageCsvLine(message: FoundMessage): string {
  const sms: Record<string, string | number | null> = serializeSms(message);
  const values = MESSAGE_CSV_COLUMNS.map((column) => String((column === "bulk_id" ? message.bulkSendId : sms[column]) ?? ""));
  return csvLine(values);
}

/** The header line, then every matching message newest first, one chunk of lines per read. */
export async function* messagesCsv(search: MessageSearch): AsyncGenerator<string> {
  yield `${MESSAGE_CSV_COLUMNS.join(",")}\r\n`;
  for await (const rows of everyMessage(search)) yield rows.map(messageCsvLine).join("");
}
