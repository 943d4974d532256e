// A view: its current SQL per dialect, schema, versions, properties and location.
import type { ViewMetadata, ViewRepresentation, ViewVersion } from "../../iceberg";
import { Async, DataTable, Properties, Time, useLoad } from "../../ui";
import { loadView, nsKey, nsName } from "./data";
import { SchemaTable } from "./Schema";

interface Props {
  prefix: string;
  levels: string[];
  name: string;
}

export function ViewPanel({ prefix, levels, name }: Props) {
  const view = useLoad(() => loadView(prefix, levels, name), [prefix, nsKey(levels), name]);
  return (
    <Async loaded={view}>
      {(v) => <ViewDetails location={v["metadata-location"] ?? ""} metadata={v.metadata} />}
    </Async>
  );
}

function sqlOf(version: ViewVersion | undefined): ViewRepresentation[] {
  return (version?.representations ?? []).filter((r) => r.type === "sql");
}

function ViewDetails({ location, metadata }: { location: string; metadata: ViewMetadata }) {
  const versions: ViewVersion[] = [...(metadata.versions ?? [])].sort(
    (a, b) => b["version-id"] - a["version-id"],
  );
  const current = versions.find((v) => v["version-id"] === metadata["current-version-id"]);
  const schemas = metadata.schemas ?? [];
  const schema = schemas.find((s) => s["schema-id"] === current?.["schema-id"]);
  const sql = sqlOf(current);
  return (
    <>
      <section aria-labelledby="view-sql">
        <h2 id="view-sql">SQL</h2>
        {sql.length === 0 ? (
          <p class="muted">No SQL representation.</p>
        ) : (
          sql.map((r, i) => (
            <figure class="sql" aria-labelledby={`view-sql-${i}`}>
              <h3 id={`view-sql-${i}`}>Dialect {r.dialect}</h3>
              <pre>{r.sql}</pre>
            </figure>
          ))
        )}
      </section>
      <section aria-labelledby="view-overview">
        <h2 id="view-overview">Overview</h2>
        <Properties
          values={{
            Location: String(metadata.location ?? ""),
            "Metadata location": String(location ?? ""),
            "View UUID": String(metadata["view-uuid"] ?? ""),
            "Format version": String(metadata["format-version"] ?? ""),
            "Current version": String(metadata["current-version-id"] ?? ""),
            "Default namespace": nsName(current?.["default-namespace"] ?? []),
          }}
        />
      </section>
      <section aria-labelledby="view-schema">
        <h2 id="view-schema">Schema</h2>
        <SchemaTable schema={schema} caption="Current schema" />
      </section>
      <section aria-labelledby="view-versions">
        <h2 id="view-versions">Versions</h2>
        <DataTable
          caption="Versions, newest first"
          rows={versions}
          empty="none."
          rowClass={(v) => (v === current ? "current" : undefined)}
          columns={[
            {
              title: "Version",
              cell: (v) => (
                <>
                  {v["version-id"]}
                  {v === current ? <span class="muted small"> (current)</span> : null}
                </>
              ),
            },
            { title: "Time", cell: (v) => <Time millis={Number(v["timestamp-ms"])} /> },
            {
              title: "Summary",
              cell: (v) =>
                Object.entries(v.summary ?? {})
                  .map(([k, val]) => `${k} ${val}`)
                  .join(" · "),
            },
            {
              title: "SQL",
              cell: (v) =>
                sqlOf(v).map((r) => (
                  <>
                    <span class="small muted">{r.dialect}</span>
                    <pre>{r.sql}</pre>
                  </>
                )),
            },
          ]}
        />
      </section>
      <section aria-labelledby="view-properties">
        <h2 id="view-properties">Properties</h2>
        <Properties values={metadata.properties} />
      </section>
    </>
  );
}
