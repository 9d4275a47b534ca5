import type { Metadata } from "next";
import { requirePagePermission } from "@/lib/auth/require-permission";
import { readBenchResults } from "@/lib/benchmarks/read-bench-results";
import { checkBenchTargets, engineName } from "@/lib/benchmarks/bench-targets";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Badge } from "@/components/ui/badge";
import { Table, Td, Th } from "@/components/ui/table";
import { PerformanceCharts } from "@/components/performance-charts";

export const metadata: Metadata = { title: "Performance" };

export default async function PerformancePage() {
  await requirePagePermission("platform.performance");
  const results = await readBenchResults();
  const checks = checkBenchTargets(results.latest);
  return (
    <>
      <PageHeader
        title="Performance"
        description="What npm run bench measured on this installation's machine, side by side with Kannel 1.4.5 in the same run. Run it again to refresh (about 4 minutes, with the server's machine otherwise quiet)."
      />
      {results.runs === 0 ? (
        <Card>
          <EmptyState
            title="No benchmark run yet"
            description={<>Run <code className="font-mono">npm run bench</code> in this installation&apos;s directory; its results are read from <code className="font-mono">{results.directory}</code> (<code className="font-mono">BENCH_RESULTS_DIR</code>).</>}
          />
        </Card>
      ) : (
        <div className="space-y-6">
          <Card>
            <CardHeader title="Against the targets" description="The latest run of each scenario, against the targets Tumira is built to (README, Performance)." />
            <Table>
              <thead>
                <tr><Th>Target</Th><Th>Engine</Th><Th>Measured</Th><Th>Verdict</Th></tr>
              </thead>
              <tbody data-testid="target-checks">
                {checks.map((check) => (
                  <tr key={`${check.target} ${check.engine}`}>
                    <Td>{check.target}</Td>
                    <Td>{engineName(check.engine)}</Td>
                    <Td className="tabular-nums">{check.measured}</Td>
                    <Td>{check.met === null ? <Badge>No figure</Badge> : check.met ? <Badge tone="green">Met</Badge> : <Badge tone="red">Missed</Badge>}</Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </Card>
          <PerformanceCharts latest={results.latest} history={results.singleSendHistory} />
        </div>
      )}
      {results.unreadable.length > 0 && (
        <p className="mt-6 text-sm text-slate-500" data-testid="unreadable-runs">
          {results.unreadable.length} file{results.unreadable.length === 1 ? "" : "s"} in {results.directory} could not be read: {results.unreadable.slice(0, 3).map((entry) => `${entry.file} (${entry.reason})`).join("; ")}
          {results.unreadable.length > 3 ? "; …" : ""}
        </p>
      )}
    </>
  );
}
