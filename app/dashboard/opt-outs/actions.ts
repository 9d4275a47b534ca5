"use server";

import { z } from "zod";
import { accountIdOf, defineAction, userActor } from "@/lib/dashboard/define-action";
import { addOptOut, findOptedOut, importOptOuts, removeOptOut } from "@/lib/opt-outs/opt-outs";
import { OPT_OUT_IMPORT_CHUNK, OPT_OUT_IMPORT_VALUE_MAX } from "@/lib/opt-outs/limits";
import { saveOptOutSettings } from "@/lib/opt-outs/opt-out-settings";
import { parseMsisdn } from "@/lib/messages/msisdn";

const MAX_CHECKED = 5_000;

export const addOptOutAction = defineAction("optouts.manage", z.object({ number: z.string() }), async (input, user) => {
  const { optOut, created } = await addOptOut({ accountId: accountIdOf(user), number: input.number, actor: userActor(user) });
  return { number: optOut.number, created };
});

export const removeOptOutAction = defineAction("optouts.manage", z.object({ number: z.string() }), async (input, user) => {
  await removeOptOut({ accountId: accountIdOf(user), number: input.number, actor: userActor(user) });
  return { number: input.number };
});

export const importOptOutsAction = defineAction(
  "optouts.manage",
  z.object({ numbers: z.array(z.string().max(OPT_OUT_IMPORT_VALUE_MAX)).min(1).max(OPT_OUT_IMPORT_CHUNK) }),
  async (input, user) => importOptOuts({ accountId: accountIdOf(user), numbers: input.numbers, actor: userActor(user) }),
);

/** Compose's check: which of these numbers a send would refuse (on the account's opt-out list), in E.164. */
export const findOptedOutAction = defineAction(
  "messages.send",
  z.object({ numbers: z.array(z.string().max(64)).max(MAX_CHECKED) }),
  async (input, user) => {
    const numbers = input.numbers.flatMap((number) => {
      const parsed = parseMsisdn(number);
      return parsed.ok ? [parsed.recipient.to] : [];
    });
    if (numbers.length === 0) return [];
    return [...(await findOptedOut(accountIdOf(user), numbers))];
  },
);

/** The account's own keywords and confirmation replies (owners only). */
export const saveOptOutSettingsAction = defineAction(
  "optouts.settings",
  z.object({
    stopKeywords: z.string().max(1000),
    startKeywords: z.string().max(1000),
    confirm: z.boolean(),
    stopReply: z.string().max(1000),
    startReply: z.string().max(1000),
  }),
  async (input, user) => saveOptOutSettings({ accountId: accountIdOf(user), ...input, actor: userActor(user) }),
);
