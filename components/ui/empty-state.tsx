import { Icon, type IconName } from "@/components/dashboard/icons";

/** What a list or a panel shows when it has nothing: an icon of what is missing, why, and what to do. */
export function EmptyState({
  icon = "inbox",
  title,
  description,
  action,
}: {
  icon?: IconName;
  title: string;
  description: React.ReactNode;
  action?: React.ReactNode;
}) {
  return (
    <div className="flex flex-col items-center justify-center px-6 py-12 text-center" data-testid="empty-state">
      <div className="mb-3 flex h-10 w-10 items-center justify-center rounded-full bg-slate-100 text-slate-400">
        <Icon name={icon} className="h-5 w-5" />
      </div>
      <p className="text-sm font-semibold text-slate-900">{title}</p>
      <p className="mt-1 max-w-sm text-sm text-slate-500 wrap-anywhere">{description}</p>
      {action && <div className="mt-4">{action}</div>}
    </div>
  );
}
