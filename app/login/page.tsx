import { Suspense } from "react";
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getSessionUser } from "@/lib/auth/require-permission";
import { LoginForm } from "./login-form";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function LoginPage() {
  if (await getSessionUser()) redirect("/dashboard");
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-gradient-to-b from-slate-50 to-slate-100 px-4">
      <div className="mb-6 flex items-center gap-2">
        <span aria-hidden className="flex h-9 w-9 items-center justify-center rounded-lg bg-brand-600 text-lg font-bold text-white">
          T
        </span>
        <span className="text-xl font-semibold tracking-tight text-slate-900">Tumira</span>
      </div>
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <div className="mb-6">
          <h1 className="text-lg font-semibold text-slate-900">Sign in</h1>
          <p className="mt-1 text-sm text-slate-500">to your SMS gateway dashboard</p>
        </div>
        <Suspense>
          <LoginForm />
        </Suspense>
      </div>
      <p className="mt-6 text-xs text-slate-400">SMS for Econet, NetOne and Telecel</p>
    </main>
  );
}
