import type { Metadata } from "next";
import { requireAccountPage } from "@/lib/auth/require-permission";
import { can } from "@/lib/auth/permissions";
import { getAccountTimeZone } from "@/lib/accounts/account-time-zone";
import { listTimeZones } from "@/lib/model/time-zones";
import { PageHeader } from "@/components/ui/page-header";
import { TimeZoneCard } from "./time-zone-card";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const user = await requireAccountPage("account.view");
  const timeZone = await getAccountTimeZone(user.accountId);
  const zones = listTimeZones();
  return (
    <>
      <PageHeader title="Settings" description="How the dashboard works for everyone in this account." />
      <TimeZoneCard
        timeZone={timeZone}
        zones={zones.includes(timeZone) ? zones : [timeZone, ...zones]}
        canEdit={can(user.role, "account.settings")}
      />
    </>
  );
}
