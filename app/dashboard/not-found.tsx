import { ButtonLink } from "@/components/ui/button";

export default function DashboardNotFound() {
  return (
    <div className="mx-auto max-w-md py-24 text-center" data-testid="not-found">
      <p className="text-sm font-semibold text-brand-600">404</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-slate-900">Nothing to see here</h1>
      <p className="mt-2 text-sm text-slate-500">This page does not exist, or your role does not give you access to it.</p>
      <ButtonLink href="/dashboard" variant="secondary" className="mt-6">
        Back to the dashboard
      </ButtonLink>
    </div>
  );
}
