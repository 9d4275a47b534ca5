import type { Metadata } from "next";
import { requirePagePermission } from "@/lib/auth/require-permission";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardBody } from "@/components/ui/card";
import { ChangePasswordForm } from "./change-password-form";

export const metadata: Metadata = { title: "Password" };

export default async function PasswordPage() {
  const user = await requirePagePermission("password.change");
  return (
    <>
      <PageHeader
        title="Password"
        description={`The password ${user.email} signs in with. Changing it signs you out everywhere else: every other browser and device where you are signed in.`}
      />
      <Card className="max-w-xl">
        <CardBody>
          <ChangePasswordForm />
        </CardBody>
      </Card>
    </>
  );
}
