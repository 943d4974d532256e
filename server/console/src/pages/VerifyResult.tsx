// A storage self-check report: the verdict, then one row per check. A negative check the store
// allowed is marked as mis-scoped with the server's explanation of where to fix it.
import type { Schemas } from "../api";
import { DataTable } from "../ui";

export function VerifyResult({ report }: { report: Schemas["VerificationReport"] }) {
  if (report.verdict === "unavailable") {
    return (
      <p class="muted" role="status">
        Self-check unavailable: {report.message}
      </p>
    );
  }
  const verdictClass = report.verdict === "pass" ? "ok" : "bad";
  return (
    <div class="verify">
      <p role="status">
        Verdict for <strong>{report.catalog}</strong> ({report.storageType}):{" "}
        <span class={`badge ${verdictClass}`}>{String(report.verdict).toUpperCase()}</span> —{" "}
        {report.passed} passed, {report.failed} failed, {report.skipped} skipped. Probe prefix{" "}
        <code>{report.probePrefix}</code>, cleanup: {report.cleanup}.
      </p>
      <DataTable
        caption="Self-check results"
        rows={report.checks ?? []}
        rowClass={(c) => (c.pass ? undefined : c.outcome === "skipped" ? "skipped" : "failed")}
        columns={[
          { title: "Check", cell: (c) => c.name },
          { title: "Expected", cell: (c) => c.expected },
          { title: "Observed", cell: (c) => c.observed },
          {
            title: "Result",
            cell: (c) => (
              <span class={`badge ${c.pass ? "ok" : c.outcome === "skipped" ? "neutral" : "bad"}`}>
                {c.outcome}
              </span>
            ),
          },
          { title: "Store's answer", cell: (c) => [c.status, c.code].filter(Boolean).join(" ") },
          { title: "Explanation", cell: (c) => c.explanation ?? "" },
        ]}
      />
    </div>
  );
}
