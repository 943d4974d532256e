// A table: where it lives, its current schema, partition specs, sort orders, properties, the
// snapshots and refs, and the metadata log. Storage credentials a load may carry are dropped by
// loadTable and never reach this component.
import { useCatalogActions } from "../../actions";
import type { TableMetadata } from "../../iceberg";
import { Async, DataTable, Properties, formatTime, go, Time, useLoad } from "../../ui";
import { DropTableButton } from "./Actions";
import { loadTable, nsKey } from "./data";
import { SchemaTable, fieldNames } from "./Schema";
import { Snapshots } from "./Snapshots";

interface Props {
  catalog: string;
  prefix: string;
  levels: string[];
  name: string;
  changed: () => void;
}

export function TablePanel({ catalog, prefix, levels, name, changed }: Props) {
  const table = useLoad(() => loadTable(prefix, levels, name), [prefix, nsKey(levels), name]);
  const actions = useCatalogActions(catalog, { namespace: levels, table: name });
  return (
    <>
      <Async loaded={table}>
        {(t) => <TableDetails location={t["metadata-location"] ?? ""} metadata={t.metadata} />}
      </Async>
      {actions.data?.has("dropTable") && !table.error ? (
        <section aria-labelledby="table-actions" class="content-actions">
          <h2 id="table-actions">Change</h2>
          <DropTableButton
            prefix={prefix}
            levels={levels}
            name={name}
            onDropped={() => {
              changed();
              go("browse", catalog, "namespace", nsKey(levels));
            }}
          />
        </section>
      ) : null}
    </>
  );
}

function TableDetails({ location, metadata }: { location: string; metadata: TableMetadata }) {
  const schemas = metadata.schemas ?? [];
  const currentSchemaId = metadata["current-schema-id"];
  const schema = schemas.find((s) => s["schema-id"] === currentSchemaId) ?? schemas[0];
  const names = fieldNames(schema ? [schema, ...schemas] : schemas);
  const current = metadata["current-snapshot-id"];
  return (
    <>
      <section aria-labelledby="table-overview">
        <h2 id="table-overview">Overview</h2>
        <Properties
          values={{
            Location: String(metadata.location ?? ""),
            "Metadata location": String(location ?? ""),
            "Table UUID": String(metadata["table-uuid"] ?? ""),
            "Format version": String(metadata["format-version"] ?? ""),
            "Current snapshot":
              current === undefined || current === null || String(current) === "-1"
                ? "none"
                : String(current),
            "Last updated": formatTime(Number(metadata["last-updated-ms"])),
          }}
        />
      </section>
      <section aria-labelledby="table-schema">
        <h2 id="table-schema">Schema</h2>
        <SchemaTable schema={schema} caption="Current schema" />
        <p class="muted small">
          Schema id {String(schema?.["schema-id"] ?? "")}; the table has {schemas.length} schema
          {schemas.length === 1 ? "" : "s"}.
        </p>
      </section>
      <section aria-labelledby="table-partitioning">
        <h2 id="table-partitioning">Partitioning</h2>
        <Specs metadata={metadata} names={names} />
      </section>
      <section aria-labelledby="table-sort">
        <h2 id="table-sort">Sort order</h2>
        <SortOrders metadata={metadata} names={names} />
      </section>
      <section aria-labelledby="table-properties">
        <h2 id="table-properties">Properties</h2>
        <Properties values={metadata.properties} />
      </section>
      <section aria-labelledby="table-snapshots">
        <h2 id="table-snapshots">Snapshots and refs</h2>
        <Snapshots metadata={metadata} />
      </section>
      <section aria-labelledby="table-metadata-log">
        <h2 id="table-metadata-log">Metadata log</h2>
        <MetadataLog metadata={metadata} location={location} />
      </section>
    </>
  );
}

/** A partition or sort field's source column, by name (its id when no schema has it). */
function Source({ names, id }: { names: Map<number, string>; id: unknown }) {
  return <code>{names.get(Number(id)) ?? `field ${String(id)}`}</code>;
}

/** The default spec first, then the older ones, newest first. */
function Specs({ metadata, names }: { metadata: TableMetadata; names: Map<number, string> }) {
  const defaultId = metadata["default-spec-id"];
  const specs = [...(metadata["partition-specs"] ?? [])].sort((a, b) =>
    a["spec-id"] === defaultId ? -1 : b["spec-id"] === defaultId ? 1 : b["spec-id"] - a["spec-id"],
  );
  if (specs.length === 0) {
    return <p class="muted">No partition spec.</p>;
  }
  return (
    <>
      {specs.map((spec) => {
        const isDefault = spec["spec-id"] === defaultId;
        const label = `Partition spec ${spec["spec-id"]}${isDefault ? " (default)" : ""}`;
        return (spec.fields ?? []).length === 0 ? (
          <p class="muted">{label}: unpartitioned.</p>
        ) : (
          <DataTable
            caption={label}
            rows={spec.fields ?? []}
            columns={[
              {
                title: "Source field",
                cell: (f) => <Source names={names} id={f["source-id"]} />,
              },
              { title: "Transform", cell: (f) => <code>{f.transform}</code> },
              { title: "Name", cell: (f) => f.name },
              { title: "Field id", cell: (f) => f["field-id"] },
            ]}
          />
        );
      })}
    </>
  );
}

function SortOrders({ metadata, names }: { metadata: TableMetadata; names: Map<number, string> }) {
  const defaultId = metadata["default-sort-order-id"];
  const orders = metadata["sort-orders"] ?? [];
  const order = orders.find((o) => o["order-id"] === defaultId);
  if (!order || (order.fields ?? []).length === 0) {
    return <p class="muted">Unsorted.</p>;
  }
  return (
    <DataTable
      caption={`Sort order ${order["order-id"]} (default)`}
      rows={order.fields ?? []}
      columns={[
        { title: "Source field", cell: (f) => <Source names={names} id={f["source-id"]} /> },
        { title: "Transform", cell: (f) => <code>{f.transform}</code> },
        { title: "Direction", cell: (f) => f.direction },
        { title: "Nulls", cell: (f) => f["null-order"] },
      ]}
    />
  );
}

/** The previous metadata files, newest first, after the current one. */
function MetadataLog({ metadata, location }: { metadata: TableMetadata; location: string }) {
  const log = [...(metadata["metadata-log"] ?? [])].reverse();
  const rows = [
    { time: Number(metadata["last-updated-ms"]), file: location, current: true },
    ...log.map((e) => ({
      time: Number(e["timestamp-ms"]),
      file: String(e["metadata-file"]),
      current: false,
    })),
  ];
  return (
    <DataTable
      caption="Metadata files, newest first"
      rows={rows}
      columns={[
        { title: "Time", cell: (r) => <Time millis={r.time} /> },
        {
          title: "Metadata file",
          cell: (r) => (
            <>
              <code>{r.file}</code>
              {r.current ? <span class="muted small"> (current)</span> : null}
            </>
          ),
        },
      ]}
    />
  );
}
