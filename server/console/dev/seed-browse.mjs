// Test data for trying the console's Browse section by hand: nested namespaces, a table with a few
// snapshots (fake manifest lists: the catalog only records them), a branch and a tag, schema and
// spec evolution, and a view with two versions.
//   node server/console/dev/seed-browse.mjs http://127.0.0.1:8201 [catalog] [client:secret]
const base = process.argv[2] ?? "http://127.0.0.1:8181";
const catalog = process.argv[3] ?? "quickstart";
const [clientId, secret] = (process.argv[4] ?? "root:rootsecret").split(":");

const tokenRes = await fetch(`${base}/api/catalog/v1/oauth/tokens`, {
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams({
    grant_type: "client_credentials",
    client_id: clientId,
    client_secret: secret,
    scope: "PRINCIPAL_ROLE:ALL",
  }),
});
const token = (await tokenRes.json()).access_token;

async function call(method, path, body) {
  const res = await fetch(`${base}/api/catalog/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    // Snapshot ids are 64-bit: written as strings here, sent as JSON numbers.
    body: body === undefined ? undefined : JSON.stringify(body).replace(/"(-?\d{16,})"/g, "$1"),
  });
  const text = await res.text();
  if (!res.ok) {
    throw new Error(`${method} ${path}: ${res.status} ${text}`);
  }
  return text ? JSON.parse(text) : null;
}

const config = await call("GET", `/config?warehouse=${encodeURIComponent(catalog)}`);
const p = `/${encodeURIComponent(config.overrides?.prefix ?? catalog)}`;
const ns = (levels) => encodeURIComponent(levels.join("\u001f"));

for (const [levels, properties] of [
  [["sales"], { owner: "finance", comment: "Sales data" }],
  [["sales", "eu"], { region: "eu-west" }],
  [["sales", "eu", "daily"], {}],
  [["sales", "us"], {}],
  [["staging"], {}],
]) {
  await call("POST", `${p}/namespaces`, { namespace: levels, properties });
}

const schema0 = {
  type: "struct",
  "schema-id": 0,
  fields: [
    { id: 1, name: "order_id", required: true, type: "long", doc: "The order's key" },
    { id: 2, name: "ts", required: true, type: "timestamptz" },
    { id: 3, name: "amount", required: false, type: "decimal(12, 2)" },
    {
      id: 4,
      name: "customer",
      required: false,
      type: {
        type: "struct",
        fields: [
          { id: 5, name: "id", required: true, type: "string" },
          { id: 6, name: "country", required: false, type: "string", doc: "ISO 3166 code" },
        ],
      },
    },
    {
      id: 7,
      name: "items",
      required: false,
      type: {
        type: "list",
        "element-id": 8,
        "element-required": true,
        element: {
          type: "struct",
          fields: [
            { id: 9, name: "sku", required: true, type: "string" },
            { id: 10, name: "qty", required: true, type: "int" },
          ],
        },
      },
    },
    {
      id: 11,
      name: "tags",
      required: false,
      type: { type: "map", "key-id": 12, key: "string", "value-id": 13, "value-required": false, value: "string" },
    },
  ],
};

const t = "orders";
const nsEu = ns(["sales", "eu"]);
const created = await call("POST", `${p}/namespaces/${nsEu}/tables`, {
  name: t,
  schema: schema0,
  "partition-spec": {
    "spec-id": 0,
    fields: [
      { "source-id": 2, "field-id": 1000, name: "ts_day", transform: "day" },
      { "source-id": 5, "field-id": 1001, name: "customer_bucket", transform: "bucket[16]" },
    ],
  },
  "write-order": {
    "order-id": 1,
    fields: [{ "source-id": 2, transform: "identity", direction: "desc", "null-order": "nulls-last" }],
  },
  properties: { "write.format.default": "parquet", owner: "finance" },
});
const location = created.metadata.location;
const tablePath = `${p}/namespaces/${nsEu}/tables/${t}`;

// Real snapshot ids are random 63-bit numbers, beyond what a JS number holds exactly.
const S = ["6339155436447254421", "8744736658442914487", "2917563457290394118", "7199920035811183002", "4611686018427387913"];
let seq = 0;
let parent = null;
const day = 5_000; // seconds apart: Iceberg refuses times before the last change (1 minute slack)
const start = Date.now();
async function snapshot(id, operation, summary, refs, at) {
  seq += 1;
  const updates = [
    {
      action: "add-snapshot",
      snapshot: {
        "snapshot-id": id,
        ...(parent === null ? {} : { "parent-snapshot-id": parent }),
        "sequence-number": seq,
        "timestamp-ms": at,
        "manifest-list": `${location}/metadata/snap-${id}-1-manifest-list.avro`,
        summary: { operation, ...summary },
        "schema-id": 0,
      },
    },
    ...refs.map(([name, type]) => ({ action: "set-snapshot-ref", "ref-name": name, type, "snapshot-id": id })),
  ];
  await call("POST", tablePath, { requirements: [], updates });
  parent = id;
}
await snapshot(S[0], "append", { "added-records": "1200", "added-data-files": "4", "total-records": "1200", "total-data-files": "4" }, [["main", "branch"]], start);
await snapshot(S[1], "append", { "added-records": "800", "added-data-files": "2", "total-records": "2000", "total-data-files": "6" }, [["main", "branch"]], start + day);
await call("POST", tablePath, {
  requirements: [],
  updates: [{ action: "set-snapshot-ref", "ref-name": "v1.0", type: "tag", "snapshot-id": S[1], "max-ref-age-ms": 30 * 86_400_000 }],
});
await snapshot(S[2], "overwrite", { "added-records": "50", "deleted-records": "40", "added-data-files": "1", "deleted-data-files": "1", "total-records": "2010" }, [["main", "branch"]], start + 2 * day);
// A branch forked from the third snapshot with its own snapshot, then main moves on.
await snapshot(S[3], "append", { "added-records": "10", "added-data-files": "1", "total-records": "2020" }, [["audit", "branch"]], start + 3 * day);
parent = S[2];
await snapshot(S[4], "delete", { "deleted-records": "5", "removed-delete-files": "0", "total-records": "2005" }, [["main", "branch"]], start + 4 * day);
// The server assigned fresh field ids at create; evolve that schema, not the request's.
const fresh = created.metadata.schemas[0];
// Schema and spec evolution: a new column, then a spec that adds an identity partition.
await call("POST", tablePath, {
  requirements: [],
  updates: [
    { action: "add-schema", schema: { ...fresh, "schema-id": 1, fields: [...fresh.fields, { id: 14, name: "channel", required: false, type: "string" }] }, "last-column-id": 14 },
    { action: "set-current-schema", "schema-id": -1 },
    { action: "add-spec", spec: { "spec-id": 1, fields: [
      { "source-id": 2, "field-id": 1000, name: "ts_day", transform: "day" },
      { "source-id": 14, "field-id": 1002, name: "channel", transform: "identity" },
    ] } },
    { action: "set-default-spec", "spec-id": -1 },
    { action: "set-properties", updates: { comment: "Orders, one row per order" } },
  ],
});

await call("POST", `${p}/namespaces/${nsEu}/tables`, {
  name: "empty_table",
  schema: { type: "struct", fields: [{ id: 1, name: "x", required: false, type: "int" }] },
});
await call("POST", `${p}/namespaces/${ns(["sales", "eu", "daily"])}/tables`, {
  name: "totals",
  schema: { type: "struct", fields: [{ id: 1, name: "day", required: true, type: "date" }, { id: 2, name: "total", required: false, type: "double" }] },
});

// A busy table: more snapshots than the timeline shows at first.
const nsUs = ns(["sales", "us"]);
const busy = await call("POST", `${p}/namespaces/${nsUs}/tables`, {
  name: "events",
  schema: { type: "struct", fields: [{ id: 1, name: "id", required: true, type: "long" }] },
});
let busyParent = null;
for (let i = 1; i <= 60; i++) {
  const id = String(9_000_000_000_000_000_000n + BigInt(i) * 7_919n);
  await call("POST", `${p}/namespaces/${nsUs}/tables/events`, {
    requirements: [],
    updates: [
      {
        action: "add-snapshot",
        snapshot: {
          "snapshot-id": id,
          ...(busyParent === null ? {} : { "parent-snapshot-id": busyParent }),
          "sequence-number": i,
          "timestamp-ms": Date.now(),
          "manifest-list": `${busy.metadata.location}/metadata/snap-${id}.avro`,
          summary: { operation: "append", "added-records": String(i * 10) },
        },
      },
      { action: "set-snapshot-ref", "ref-name": "main", type: "branch", "snapshot-id": id },
    ],
  });
  busyParent = id;
}

const viewSchema = {
  type: "struct",
  "schema-id": 0,
  fields: [
    { id: 1, name: "day", required: false, type: "date" },
    { id: 2, name: "revenue", required: false, type: "decimal(18, 2)" },
  ],
};
const view = await call("POST", `${p}/namespaces/${nsEu}/views`, {
  name: "daily_revenue",
  schema: viewSchema,
  "view-version": {
    "version-id": 1,
    "timestamp-ms": start + day,
    "schema-id": 0,
    summary: { "engine-name": "spark", "engine-version": "3.5.1" },
    representations: [
      { type: "sql", sql: "SELECT date(ts) AS day, sum(amount) AS revenue\nFROM sales.eu.orders\nGROUP BY 1", dialect: "spark" },
    ],
    "default-namespace": ["sales", "eu"],
  },
  properties: { comment: "Revenue per day" },
});
await call("POST", `${p}/namespaces/${nsEu}/views/daily_revenue`, {
  requirements: [{ type: "assert-view-uuid", uuid: view.metadata["view-uuid"] }],
  updates: [
    {
      action: "add-view-version",
      "view-version": {
        "version-id": 2,
        "timestamp-ms": start + 3 * day,
        "schema-id": 0,
        summary: { "engine-name": "trino", "engine-version": "455" },
        representations: [
          { type: "sql", sql: "SELECT date(ts) AS day, sum(amount) AS revenue\nFROM sales.eu.orders\nWHERE amount > 0\nGROUP BY 1", dialect: "spark" },
          { type: "sql", sql: "SELECT CAST(ts AS date) AS day, sum(amount) AS revenue\nFROM sales.eu.orders\nWHERE amount > 0\nGROUP BY 1", dialect: "trino" },
        ],
        "default-namespace": ["sales", "eu"],
      },
    },
    { action: "set-current-view-version", "view-version-id": -1 },
  ],
});
console.log(`seeded ${catalog}: namespaces sales, sales.eu, sales.eu.daily, sales.us, staging; table sales.eu.orders (5 snapshots, branch audit, tag v1.0); view sales.eu.daily_revenue; table sales.us.events (60 snapshots)`);
