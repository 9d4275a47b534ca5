"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { fetchJson } from "@/lib/dashboard/fetch-json";
import type { CarrierAlert } from "@/lib/dashboard/carrier-alerts";
import { cn } from "@/components/ui/cn";

const POLL_MS = 10_000;

const toneClass: Record<CarrierAlert["tone"], string> = {
  red: "border-red-200 bg-red-50 text-red-900",
  amber: "border-amber-200 bg-amber-50 text-amber-900",
};

/** The carrier alerts of the platform staff, on every page, kept current by polling. */
export function CarrierAlertBanners({ initial }: { initial: CarrierAlert[] }) {
  const { data = initial } = useQuery({
    queryKey: ["carrier-alerts"],
    queryFn: () => fetchJson<CarrierAlert[]>("/api/dashboard/carriers/alerts"),
    initialData: initial,
    refetchInterval: POLL_MS,
  });
  if (data.length === 0) return null;
  return (
    <ul className="mb-6 space-y-2" aria-label="Carrier alerts">
      {data.map((alert) => (
        <li
          key={alert.id}
          role="alert"
          data-testid="carrier-alert"
          className={cn("rounded-md border px-4 py-2 text-sm wrap-anywhere", toneClass[alert.tone])}
        >
          {alert.text}{" "}
          <Link href="/dashboard/carriers" className="font-medium underline">
            Carriers
          </Link>
        </li>
      ))}
    </ul>
  );
}
