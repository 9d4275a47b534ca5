import type { Metadata } from "next";
import { requireAccountPage } from "@/lib/auth/require-permission";
import { listMembers } from "@/lib/users/list-members";
import { PageHeader } from "@/components/ui/page-header";
import { MembersView } from "./members-view";

export const metadata: Metadata = { title: "Members" };

export default async function MembersPage() {
  const user = await requireAccountPage("members.manage");
  const members = (await listMembers(user.accountId)).map((member) => ({
    id: member.id,
    email: member.email,
    role: member.role,
    createdAt: member.createdAt.toISOString(),
  }));
  return (
    <>
      <PageHeader title="Members" description="People who can sign in to this account's dashboard." />
      <MembersView members={members} currentUserId={user.id} />
    </>
  );
}
