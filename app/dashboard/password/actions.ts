"use server";

import { defineAction } from "@/lib/dashboard/define-action";
import { currentSessionId } from "@/lib/dashboard/current-session";
import { changePassword, changePasswordSchema } from "@/lib/users/change-password";

/** The signed-in user's own password; their other sessions end, this one stays. */
export const changePasswordAction = defineAction("password.change", changePasswordSchema, async (input, user) =>
  changePassword({ ...input, userId: user.id, currentSessionId: await currentSessionId() }),
);
