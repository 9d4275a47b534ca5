"use server";

import { z } from "zod";
import { accountIdOf, defineAction, userActor } from "@/lib/dashboard/define-action";
import { addMember, addMemberSchema } from "@/lib/users/add-member";
import { removeMember } from "@/lib/users/remove-member";
import { changeMemberRole, changeMemberRoleSchema } from "@/lib/users/change-member-role";

export const addMemberAction = defineAction("members.manage", addMemberSchema, async (input, user) =>
  addMember({ ...input, accountId: accountIdOf(user), actor: userActor(user) }),
);

export const changeMemberRoleAction = defineAction("members.manage", changeMemberRoleSchema, async (input, user) =>
  changeMemberRole({ ...input, accountId: accountIdOf(user), actingUserId: user.id }),
);

export const removeMemberAction = defineAction("members.manage", z.object({ id: z.uuid() }), async (input, user) => {
  await removeMember({ accountId: accountIdOf(user), userId: input.id, actingUserId: user.id });
  return { id: input.id };
});
