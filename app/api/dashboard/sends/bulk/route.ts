// The dashboard's bulk send: the API's request schema and the same acceptMessages as
// POST /api/v1/sms/bulk, as the signed-in user. A route (not a server action) because a list of up to
// 100,000 numbers is larger than a server action accepts, and the browser reports upload progress.
import { dashboardRoute } from "@/lib/dashboard/dashboard-route";
import { accountIdOf, userActor } from "@/lib/dashboard/define-action";
import { parseJsonBody } from "@/lib/api/parse-request";
import { sendBulkSmsRequestSchema } from "@/lib/api/sms/sms-schemas";
import { acceptMessages } from "@/lib/messages/accept-messages";

export const dynamic = "force-dynamic";

export const POST = dashboardRoute("messages.send", async (request, user) => {
  const input = parseJsonBody(Buffer.from(await request.arrayBuffer()), sendBulkSmsRequestSchema);
  const send = await acceptMessages({
    accountId: accountIdOf(user),
    from: input.from,
    body: input.message,
    recipients: input.to,
    webhookUrl: input.webhook_url ?? null,
    priority: input.priority,
    sendAt: input.send_at,
    validityPeriod: input.validity_period,
    actor: userActor(user),
    userId: user.id,
    mode: "live",
    kind: "bulk",
  });
  return { bulkSendId: send.bulkSendId, total: send.messages.length, charge: send.charge.toString(), currency: send.currency };
});
