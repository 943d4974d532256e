// An Iceberg schema as a table of fields: nested struct, list and map types become indented rows
// under their parent, named by their path (customer.id, items.element.sku, tags.value.x).
import type { IcebergType, StructType } from "../../iceberg";
import { DataTable } from "../../ui";

interface Row {
  id: number | string;
  path: string;
  depth: number;
  type: string;
  required: boolean;
  doc: string;
}

/** A type in one line: primitives as is, nested ones by shape (struct, list<…>, map<…>). */
export function typeText(type: IcebergType): string {
  if (typeof type === "string") {
    return type;
  }
  switch (type.type) {
    case "struct":
      return "struct";
    case "list":
      return `list<${typeText(type.element)}>`;
    case "map":
      return `map<${typeText(type.key)}, ${typeText(type.value)}>`;
    default:
      return JSON.stringify(type);
  }
}

/** The fields of `struct`, depth first, with the nested fields of structs in lists and maps. */
function rows(struct: StructType, prefix: string, depth: number, out: Row[]): Row[] {
  for (const f of struct.fields ?? []) {
    const path = prefix + f.name;
    out.push({
      id: f.id,
      path,
      depth,
      type: typeText(f.type),
      required: Boolean(f.required),
      doc: f.doc ?? "",
    });
    nested(f.type, `${path}.`, depth + 1, out);
  }
  return out;
}

function nested(type: IcebergType, prefix: string, depth: number, out: Row[]) {
  if (typeof type !== "object" || type === null) {
    return;
  }
  if (type.type === "struct") {
    rows(type, prefix, depth, out);
  } else if (type.type === "list") {
    nested(type.element, `${prefix}element.`, depth, out);
  } else if (type.type === "map") {
    nested(type.key, `${prefix}key.`, depth, out);
    nested(type.value, `${prefix}value.`, depth, out);
  }
}

/** Field id → its path, over every schema given (specs and sort orders name source ids). */
export function fieldNames(schemas: StructType[]): Map<number, string> {
  const names = new Map<number, string>();
  for (const schema of schemas) {
    for (const row of rows(schema, "", 0, [])) {
      if (!names.has(Number(row.id))) {
        names.set(Number(row.id), row.path);
      }
    }
  }
  return names;
}

export function SchemaTable({ schema, caption }: { schema: StructType | undefined; caption: string }) {
  if (!schema) {
    return <p class="muted">No schema.</p>;
  }
  return (
    <DataTable
      caption={caption}
      rows={rows(schema, "", 0, [])}
      empty="no fields."
      rowClass={(r) => (r.depth > 0 ? `nested depth-${Math.min(r.depth, 4)}` : undefined)}
      columns={[
        { title: "Id", cell: (r) => r.id },
        { title: "Name", cell: (r) => <code class="field-name">{r.path}</code> },
        { title: "Type", cell: (r) => <code>{r.type}</code> },
        { title: "Required", cell: (r) => (r.required ? "required" : "optional") },
        { title: "Doc", cell: (r) => r.doc },
      ]}
    />
  );
}
