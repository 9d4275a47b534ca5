"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState } from "react";
import { signOut } from "next-auth/react";
import { cn } from "@/components/ui/cn";
import { Icon, type IconName } from "./icons";

/** badge: a count shown beside the label when above zero (work waiting there). */
export type NavItem = { href: string; label: string; icon: IconName; badge?: number };
export type NavSection = { title: string; items: NavItem[] };

function isActive(pathname: string, href: string): boolean {
  return href === "/dashboard" ? pathname === href : pathname === href || pathname.startsWith(`${href}/`);
}

/** Signs out, then goes to the sign-in page on the origin the browser used, whatever NEXTAUTH_URL names. */
async function signOutHere(): Promise<void> {
  await signOut({ redirect: false });
  window.location.assign("/login");
}

export function Sidebar({
  sections,
  user,
  accountName,
  modeSwitch,
}: {
  sections: NavSection[];
  user: { email: string; role: string };
  accountName: string;
  /** The test data toggle, for account users. */
  modeSwitch?: React.ReactNode;
}) {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const nav = (
    <nav aria-label="Dashboard" className="flex flex-1 flex-col gap-6 overflow-y-auto px-3 py-4">
      {sections.map((section) => (
        <div key={section.title}>
          <p className="px-2 pb-1.5 text-[11px] font-semibold tracking-wider text-slate-400 uppercase">{section.title}</p>
          <ul className="space-y-0.5">
            {section.items.map((item) => {
              const active = isActive(pathname, item.href);
              return (
                <li key={item.href}>
                  <Link
                    href={item.href}
                    onClick={() => setOpen(false)}
                    aria-current={active ? "page" : undefined}
                    className={cn(
                      "flex items-center gap-2.5 rounded-md px-2 py-1.5 text-sm font-medium transition-colors",
                      active ? "bg-brand-50 text-brand-700" : "text-slate-600 hover:bg-slate-100 hover:text-slate-900",
                    )}
                  >
                    <Icon name={item.icon} className={cn("h-4 w-4", active ? "text-brand-600" : "text-slate-400")} />
                    <span className="min-w-0 flex-1 truncate">{item.label}</span>
                    {item.badge ? (
                      <span
                        className="rounded-full bg-amber-100 px-1.5 py-0.5 text-[11px] font-semibold text-amber-800 tabular-nums"
                        data-testid="nav-badge"
                        aria-label={`${item.badge} pending`}
                      >
                        {item.badge}
                      </span>
                    ) : null}
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
  const account = (
    <div className="border-t border-slate-200 p-3">
      <div className="flex items-center gap-2.5 rounded-md px-2 py-1.5">
        <span
          aria-hidden
          className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-slate-900 text-xs font-semibold text-white uppercase"
        >
          {user.email.slice(0, 2)}
        </span>
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium text-slate-900" data-testid="user-email">
            {user.email}
          </p>
          <p className="truncate text-xs text-slate-500">
            <span className="capitalize">{user.role}</span> ·{" "}
            <Link href="/dashboard/password" className="hover:text-slate-700 hover:underline">
              Password
            </Link>
          </p>
        </div>
        <button
          type="button"
          onClick={signOutHere}
          className="rounded-md p-1.5 text-slate-400 hover:bg-slate-100 hover:text-slate-700"
          aria-label="Sign out"
          title="Sign out"
        >
          <Icon name="logout" />
        </button>
      </div>
    </div>
  );
  const brand = (
    <Link href="/dashboard" className="flex items-center gap-2">
      <span aria-hidden className="flex h-7 w-7 items-center justify-center rounded-lg bg-brand-600 text-sm font-bold text-white">
        T
      </span>
      <span className="text-base font-semibold tracking-tight text-slate-900">Tumira</span>
    </Link>
  );
  return (
    <>
      <header className="sticky top-0 z-30 flex h-14 items-center justify-between border-b border-slate-200 bg-white px-4 lg:hidden">
        {brand}
        <button
          type="button"
          onClick={() => setOpen((value) => !value)}
          aria-expanded={open}
          aria-label="Menu"
          className="rounded-md p-2 text-slate-600 hover:bg-slate-100"
        >
          <Icon name="menu" className="h-5 w-5" />
        </button>
      </header>
      {open && <div className="fixed inset-0 z-30 bg-slate-900/30 lg:hidden" onClick={() => setOpen(false)} aria-hidden />}
      <aside
        className={cn(
          "fixed inset-y-0 left-0 z-40 w-64 shrink-0 border-r border-slate-200 bg-white transition-transform lg:static lg:translate-x-0",
          open ? "translate-x-0" : "-translate-x-full max-lg:invisible",
        )}
      >
        <div className="flex h-full flex-col lg:sticky lg:top-0 lg:h-screen">
          <div className="flex h-14 items-center border-b border-slate-200 px-5">{brand}</div>
          <div className="border-b border-slate-200 px-5 py-3">
            <p className="text-[11px] font-semibold tracking-wider text-slate-400 uppercase">
              {user.role === "support" || user.role === "admin" ? "Platform" : "Account"}
            </p>
            <p className="truncate text-sm font-medium text-slate-900" data-testid="account-name">
              {accountName}
            </p>
            {modeSwitch}
          </div>
          {nav}
          {account}
        </div>
      </aside>
    </>
  );
}
