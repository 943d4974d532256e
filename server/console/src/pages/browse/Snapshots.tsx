// A table's snapshots as a timeline, newest first: what each did (summary highlights), which refs
// point at it, its parent, and which branches have it in their history.
import { useState } from "preact/hooks";
import type { Snapshot, SnapshotRef, TableMetadata } from "../../iceberg";
import { DataTable, Properties, Time } from "../../ui";

/** Snapshots shown before "Show all": a busy table has thousands. */
const FIRST = 50;

const HIGHLIGHTS = [
  "added-records",
  "deleted-records",
  "added-data-files",
  "deleted-data-files",
  "added-delete-files",
  "removed-delete-files",
  "added-position-deletes",
  "added-equality-deletes",
  "total-records",
  "total-data-files",
];

interface Ref {
  name: string;
  type: string;
  snapshot: string;
  raw: SnapshotRef;
}

function refsOf(metadata: TableMetadata): Ref[] {
  return Object.entries(metadata.refs ?? {})
    .map(([name, r]) => ({
      name,
      type: String(r.type),
      snapshot: String(r["snapshot-id"]),
      raw: r,
    }))
    .sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

/** main first, then the other branches, then tags. */
function rank(ref: Ref): number {
  return ref.name === "main" ? 0 : ref.type === "branch" ? 1 : 2;
}

/** Snapshot id → the branches whose history (the parent chain from their head) holds it. */
function branchHistory(snapshots: Snapshot[], refs: Ref[]): Map<string, string[]> {
  const parents = new Map<string, string | null>();
  for (const s of snapshots) {
    const parent = s["parent-snapshot-id"];
    const id = String(s["snapshot-id"]);
    parents.set(id, parent === undefined || parent === null ? null : String(parent));
  }
  const onBranches = new Map<string, string[]>();
  for (const ref of refs.filter((r) => r.type === "branch")) {
    const seen = new Set<string>();
    let id: string | null = ref.snapshot;
    while (id !== null && parents.has(id) && !seen.has(id)) {
      seen.add(id);
      onBranches.set(id, [...(onBranches.get(id) ?? []), ref.name]);
      id = parents.get(id) ?? null;
    }
  }
  return onBranches;
}

export function Snapshots({ metadata }: { metadata: TableMetadata }) {
  const snapshots: Snapshot[] = [...(metadata.snapshots ?? [])].sort(
    (a, b) =>
      Number(b["timestamp-ms"]) - Number(a["timestamp-ms"]) ||
      Number(b["sequence-number"] ?? 0) - Number(a["sequence-number"] ?? 0),
  );
  const refs = refsOf(metadata);
  const history = branchHistory(snapshots, refs);
  const current = String(metadata["current-snapshot-id"] ?? "");
  const [showAll, setShowAll] = useState(false);
  const shown = showAll ? snapshots : snapshots.slice(0, FIRST);
  return (
    <>
      {refs.length === 0 ? (
        <p class="muted">No branches or tags.</p>
      ) : (
        <DataTable
          caption="Branches and tags"
          rows={refs}
          columns={[
            { title: "Name", cell: (r) => r.name },
            { title: "Type", cell: (r) => r.type },
            { title: "Snapshot", cell: (r) => <code>{r.snapshot}</code> },
            { title: "Retention", cell: (r) => retention(r.raw) },
          ]}
        />
      )}
      {snapshots.length === 0 ? (
        <p class="muted">No snapshots.</p>
      ) : (
        <ol class="timeline" aria-label="Snapshots, newest first">
          {shown.map((s) => {
            const id = String(s["snapshot-id"]);
            const pointing = refs.filter((r) => r.snapshot === id);
            const branches = history.get(id) ?? [];
            const summary = s.summary ?? {};
            const parent = s["parent-snapshot-id"];
            return (
              <li class={id === current ? "snapshot current" : "snapshot"}>
                <div class="snapshot-head">
                  <Time millis={Number(s["timestamp-ms"])} />{" "}
                  <span>
                    Snapshot <code>{id}</code>
                  </span>{" "}
                  <span class="badge neutral">{summary.operation ?? "unknown"}</span>
                  {pointing.map((r) => (
                    <>
                      {" "}
                      <span class={r.type === "branch" ? "badge ok" : "badge tag"}>
                        {r.type} {r.name}
                      </span>
                    </>
                  ))}
                  {id === current ? <span class="muted small"> (current)</span> : null}
                </div>
                <div class="small">{highlights(summary)}</div>
                <div class="small muted">
                  {parent === undefined || parent === null ? (
                    "No parent"
                  ) : (
                    <>
                      Parent <code>{String(parent)}</code>
                    </>
                  )}
                  {" · "}
                  {branches.length
                    ? `in the history of ${branches.map((b) => `branch ${b}`).join(", ")}`
                    : "on no branch"}
                  {s["schema-id"] !== undefined ? ` · schema ${s["schema-id"]}` : ""}
                </div>
                <details>
                  <summary>Summary and manifest list of {id}</summary>
                  <Properties
                    values={{ ...summary, "manifest-list": String(s["manifest-list"] ?? "") }}
                  />
                </details>
              </li>
            );
          })}
        </ol>
      )}
      {shown.length < snapshots.length ? (
        <p>
          <span class="muted">
            The {shown.length} newest of {snapshots.length} snapshots.
          </span>{" "}
          <button type="button" class="secondary" onClick={() => setShowAll(true)}>
            Show all {snapshots.length} snapshots
          </button>
        </p>
      ) : null}
    </>
  );
}

function highlights(summary: Record<string, string>): string {
  const parts = HIGHLIGHTS.filter((k) => summary[k] !== undefined).map((k) => `${k} ${summary[k]}`);
  return parts.length ? parts.join(" · ") : "No summary counts.";
}

function retention(ref: SnapshotRef): string {
  const parts: string[] = [];
  if (ref["max-ref-age-ms"] !== undefined) {
    parts.push(`ref kept ${duration(Number(ref["max-ref-age-ms"]))}`);
  }
  if (ref["max-snapshot-age-ms"] !== undefined) {
    parts.push(`snapshots kept ${duration(Number(ref["max-snapshot-age-ms"]))}`);
  }
  if (ref["min-snapshots-to-keep"] !== undefined) {
    parts.push(`at least ${ref["min-snapshots-to-keep"]} snapshots`);
  }
  return parts.length ? parts.join(", ") : "table default";
}

function duration(ms: number): string {
  const day = 86_400_000;
  if (ms % day === 0) {
    return `${ms / day} d`;
  }
  if (ms % 3_600_000 === 0) {
    return `${ms / 3_600_000} h`;
  }
  return `${ms} ms`;
}
