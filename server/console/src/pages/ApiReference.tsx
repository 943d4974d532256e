// The management API's reference, read at run time from the server's own OpenAPI document (so it
// is always the running server's API): operations grouped by tag, each with who may call it, its
// parameters, and its request and response schemas, whose fields unfold inline.
import { useState } from "preact/hooks";
import { OPENAPI_YAML, getOpenApiDocumentJson } from "../api";
import { Async, DataTable, Field, useLoad } from "../ui";
import {
  documentOf,
  refsOf,
  typeText,
  whoMayCall,
  type ApiDocument,
  type Operation,
  type SchemaObject,
} from "./apiref/model";

/** Nesting kept inline before a schema is only named (the schemas refer to one another). */
const MAX_DEPTH = 4;

export function ApiReference() {
  const doc = useLoad(async () => documentOf(await getOpenApiDocumentJson()), []);
  const [filter, setFilter] = useState("");
  return (
    <section aria-labelledby="api-title" class="api-reference">
      <div class="title-row">
        <h1 id="api-title">API reference</h1>
        <a class="button secondary" href={OPENAPI_YAML} download="management-api.yaml">
          Download openapi.yaml
        </a>
      </div>
      <p class="muted">
        The management API (<code>/api/management/v1</code>), from the server's OpenAPI document.
        Every call needs a bearer token from <code>/api/catalog/v1/oauth/tokens</code>; the server
        decides who may call what, as each operation says.
      </p>
      <Async loaded={doc}>
        {(d: ApiDocument) => (
          <>
            <p class="small muted">
              {d.title} {d.version}: {d.operations.length} operations, {d.schemas.size} schemas.
            </p>
            <Field
              label="Filter operations"
              name="apiFilter"
              value={filter}
              onInput={setFilter}
              hint="by operation id, path, summary or schema name"
            />
            {d.tags.map((tag) => (
              <Tag doc={d} tag={tag} filter={filter.trim().toLowerCase()} />
            ))}
            <Schemas doc={d} filter={filter.trim().toLowerCase()} />
          </>
        )}
      </Async>
    </section>
  );
}

function matches(op: Operation, filter: string): boolean {
  if (!filter) {
    return true;
  }
  const schemas = [op.requestBody?.schema, ...op.responses.map((r) => r.schema)].flatMap(refsOf);
  return [op.id, op.path, op.summary, op.method, ...schemas].some((t) =>
    t.toLowerCase().includes(filter),
  );
}

function Tag({ doc, tag, filter }: { doc: ApiDocument; tag: string; filter: string }) {
  const ops = doc.operations.filter((op) => op.tag === tag && matches(op, filter));
  if (ops.length === 0) {
    return null;
  }
  const id = `api-tag-${tag.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{tag}</h2>
      {ops.map((op) => (
        <OperationView doc={doc} op={op} />
      ))}
    </section>
  );
}

/** Every schema of the document by name, each unfolding like the operations' ones. */
function Schemas({ doc, filter }: { doc: ApiDocument; filter: string }) {
  const names = [...doc.schemas.keys()].filter((n) => n.toLowerCase().includes(filter));
  if (names.length === 0) {
    return null;
  }
  return (
    <section aria-labelledby="api-schemas">
      <h2 id="api-schemas">Schemas</h2>
      <ul class="schema-list">
        {names.map((name) => (
          <li>
            <NamedSchema doc={doc} name={name} depth={0} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function OperationView({ doc, op }: { doc: ApiDocument; op: Operation }) {
  const id = `api-op-${op.id}`;
  const success = op.responses.filter((r) => r.status.startsWith("2"));
  const errors = op.responses.filter((r) => !r.status.startsWith("2"));
  return (
    <article class="operation" aria-labelledby={id}>
      <h3 id={id}>
        <span class={`method method-${op.method.toLowerCase()}`}>{op.method}</span>{" "}
        <code class="api-path">{op.path}</code>
      </h3>
      <p class="operation-id">
        <code>{op.id}</code> · {op.summary}
      </p>
      <p class="small">
        <strong>Who may call it:</strong> {whoMayCall(op)}
      </p>
      {op.description ? <p class="small muted">{op.description}</p> : null}
      {op.parameters.length > 0 ? (
        <DataTable
          caption={`Parameters of ${op.id}`}
          rows={op.parameters}
          columns={[
            { title: "Name", cell: (p) => <code>{p.name}</code> },
            { title: "In", cell: (p) => p.in },
            { title: "Type", cell: (p) => typeText(p.schema) },
            { title: "Required", cell: (p) => (p.required ? "required" : "optional") },
            { title: "Description", cell: (p) => p.description ?? "" },
          ]}
        />
      ) : null}
      {op.requestBody ? (
        <div class="api-body">
          <h4>Request body{op.requestBody.required ? "" : " (optional)"}</h4>
          <SchemaView doc={doc} schema={op.requestBody.schema} depth={0} />
        </div>
      ) : null}
      <div class="api-body">
        <h4>Response</h4>
        {success.map((r) => (
          <div>
            <span class="badge ok">{r.status}</span> {r.description}
            {r.schema ? <SchemaView doc={doc} schema={r.schema} depth={0} /> : null}
          </div>
        ))}
        {errors.length > 0 ? (
          <p class="small muted">
            Errors (Iceberg's ErrorResponse):{" "}
            {errors.map((r) => `${r.status} ${r.description}`).join("; ")}
          </p>
        ) : null}
      </div>
    </article>
  );
}

/** A schema: named ones unfold (a details element) into their fields; others show their type. */
function SchemaView({
  doc,
  schema,
  depth,
}: {
  doc: ApiDocument;
  schema: SchemaObject | undefined;
  depth: number;
}) {
  if (!schema) {
    return null;
  }
  const names = refsOf(schema);
  if (names.length === 0) {
    return <code class="api-type">{typeText(schema)}</code>;
  }
  return (
    <>
      {schema.ref ? null : <code class="api-type">{typeText(schema)}</code>}
      {names.map((name) => (
        <NamedSchema doc={doc} name={name} depth={depth} />
      ))}
    </>
  );
}

function NamedSchema({ doc, name, depth }: { doc: ApiDocument; name: string; depth: number }) {
  // The fields are drawn once unfolded: drawn ahead, every operation's schemas, nested, would
  // make a page of thousands of rows.
  const [open, setOpen] = useState(false);
  const schema = doc.schemas.get(name);
  if (!schema || depth >= MAX_DEPTH) {
    return <code class="api-type">{name}</code>;
  }
  return (
    <details class="schema" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        <code>{name}</code>
        {schema.description ? <span class="small muted"> {schema.description}</span> : null}
      </summary>
      {open ? <SchemaBody doc={doc} name={name} schema={schema} depth={depth} /> : null}
    </details>
  );
}

function SchemaBody({
  doc,
  name,
  schema,
  depth,
}: {
  doc: ApiDocument;
  name: string;
  schema: SchemaObject;
  depth: number;
}) {
  if (schema.oneOf) {
    return (
      <div class="schema-body">
        <p class="small">One of:</p>
        {schema.oneOf.map((variant) => (
          <SchemaView doc={doc} schema={variant} depth={depth + 1} />
        ))}
      </div>
    );
  }
  const properties = schema.properties ?? [];
  if (properties.length === 0) {
    return (
      <p class="small muted schema-body">
        <code>{typeText(schema)}</code>
      </p>
    );
  }
  const required = new Set(schema.required ?? []);
  return (
    <div class="schema-body">
      <DataTable
        caption={`Fields of ${name}`}
        rows={properties}
        columns={[
          { title: "Field", cell: ([field]) => <code>{field}</code> },
          {
            title: "Type",
            cell: ([, s]) =>
              refsOf(s).length > 0 ? (
                <SchemaView doc={doc} schema={s} depth={depth + 1} />
              ) : (
                <code class="api-type">{typeText(s)}</code>
              ),
          },
          {
            title: "Required",
            cell: ([field, s]) =>
              (required.has(field) ? "required" : "optional") + (s.readOnly ? ", read-only" : ""),
          },
          { title: "Description", cell: ([, s]) => s.description ?? "" },
        ]}
      />
    </div>
  );
}
