import { db } from "@/lib/db/client";
import { getSessionUser, redirectToSignIn } from "@/lib/auth/require-permission";
import { can, type Permission } from "@/lib/auth/permissions";
import { Sidebar, type NavItem, type NavSection } from "@/components/dashboard/sidebar";
import { Providers } from "@/components/providers";
import { CarrierAlertBanners } from "@/components/dashboard/carrier-alert-banners";
import { listCarrierAlerts } from "@/lib/dashboard/carrier-alerts";
import { countPendingTopUps } from "@/lib/ledger/top-up-requests";
import { getViewMode } from "@/lib/dashboard/view-mode";
import { TestDataBanner, ViewModeSwitch } from "./view-mode-switch";

export const dynamic = "force-dynamic";

const accountNav: (NavItem & { permission: Permission })[] = [
  { href: "/dashboard", label: "Overview", icon: "home", permission: "account.view" },
  { href: "/dashboard/compose", label: "Compose", icon: "send", permission: "messages.send" },
  { href: "/dashboard/messages", label: "Messages", icon: "inbox", permission: "messages.view" },
  { href: "/dashboard/opt-outs", label: "Opt-outs", icon: "users", permission: "optouts.manage" },
  { href: "/dashboard/inbox", label: "Inbox", icon: "inbox", permission: "inbound.view" },
  { href: "/dashboard/billing", label: "Balance", icon: "wallet", permission: "account.view" },
];
const developerNav: (NavItem & { permission: Permission })[] = [
  { href: "/dashboard/keys", label: "API keys", icon: "key", permission: "keys.manage" },
  { href: "/dashboard/webhooks", label: "Webhooks", icon: "webhook", permission: "account.view" },
  { href: "/dashboard/senders", label: "Sender IDs", icon: "tag", permission: "account.view" },
  { href: "/dashboard/api-reference", label: "API reference", icon: "book", permission: "account.view" },
];
const settingsNav: (NavItem & { permission: Permission })[] = [
  { href: "/dashboard/members", label: "Members", icon: "users", permission: "members.manage" },
  { href: "/dashboard/settings", label: "Settings", icon: "clock", permission: "account.view" },
  { href: "/dashboard/audit", label: "Audit log", icon: "history", permission: "audit.view" },
];
const platformNav: (NavItem & { permission: Permission })[] = [
  { href: "/dashboard/support", label: "Message lookup", icon: "search", permission: "platform.lookup" },
  { href: "/dashboard/inbox", label: "Inbound", icon: "inbox", permission: "platform.inbound" },
  { href: "/dashboard/admin", label: "Accounts", icon: "building", permission: "platform.accounts" },
  { href: "/dashboard/top-ups", label: "Top-up requests", icon: "wallet", permission: "balance.credit" },
  { href: "/dashboard/carriers", label: "Carriers", icon: "signal", permission: "carriers.view" },
];

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const user = (await getSessionUser()) ?? (await redirectToSignIn());
  const alerts = can(user.role, "carriers.view") ? await listCarrierAlerts() : null;
  const mode = user.accountId && can(user.role, "account.view") ? await getViewMode() : null;
  const pendingTopUps = can(user.role, "balance.credit") ? await countPendingTopUps() : 0;
  const account = user.accountId ? await db().account.findUnique({ where: { id: user.accountId }, select: { name: true } }) : null;
  const allowed = (items: (NavItem & { permission: Permission })[]) =>
    items
      .filter((item) => can(user.role, item.permission))
      .map(({ href, label, icon }) => ({ href, label, icon, badge: href === "/dashboard/top-ups" ? pendingTopUps : undefined }));
  const sections: NavSection[] = [
    { title: "Messaging", items: allowed(accountNav) },
    { title: "Developers", items: allowed(developerNav) },
    { title: "Settings", items: allowed(settingsNav) },
    { title: "Platform", items: allowed(platformNav) },
  ].filter((section) => section.items.length > 0);
  return (
    <Providers>
      <a
        href="#content"
        className="sr-only rounded-md bg-white px-3 py-2 text-sm font-medium text-brand-700 shadow-lg ring-2 ring-brand-500 focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50"
      >
        Skip to content
      </a>
      <div className="min-h-screen lg:flex">
        <Sidebar
          sections={sections}
          user={{ email: user.email, role: user.role }}
          accountName={account?.name ?? "Tumira platform"}
          modeSwitch={mode && <ViewModeSwitch mode={mode} className="mt-2" />}
        />
        <main id="content" tabIndex={-1} className="min-w-0 flex-1 focus:outline-none">
          <div className="mx-auto max-w-6xl px-4 py-6 sm:px-6 lg:px-10 lg:py-10">
            {alerts && <CarrierAlertBanners initial={alerts} />}
            {mode === "test" && <TestDataBanner />}
            {children}
          </div>
        </main>
      </div>
    </Providers>
  );
}
