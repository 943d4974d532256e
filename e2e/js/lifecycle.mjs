// End-to-end lifecycle of a namespace and a table in Sluice through the iceberg-js client.
//
// Run by dev.sluice.e2e.IcebergJsEndToEndTest against a Sluice server it started; can also be run
// by hand:
//   SLUICE_BASE_URL=http://127.0.0.1:8181/api/catalog SLUICE_WAREHOUSE=quickstart \
//   SLUICE_TOKEN=<bearer token> node e2e/js/lifecycle.mjs
//
// Every step asserts its result; the first failing step prints why and the process exits 1.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { IcebergError, IcebergRestCatalog } from 'iceberg-js'

function requireEnv(name) {
  const value = process.env[name]
  if (!value) {
    console.error(`missing environment variable ${name}`)
    process.exit(2)
  }
  return value
}

const baseUrl = requireEnv('SLUICE_BASE_URL')
const token = requireEnv('SLUICE_TOKEN')
const warehouse = requireEnv('SLUICE_WAREHOUSE')

let stepCount = 0
async function step(name, fn) {
  stepCount++
  try {
    await fn()
    console.log(`ok ${stepCount} - ${name}`)
  } catch (err) {
    console.log(`not ok ${stepCount} - ${name}`)
    console.error(describe(err))
    process.exit(1)
  }
}

function describe(err) {
  if (err instanceof IcebergError) {
    return `IcebergError status=${err.status} type=${err.icebergType} code=${err.icebergCode}: ${err.message}\n` +
      `details: ${JSON.stringify(err.details)}\n${err.stack}`
  }
  return err?.stack ?? String(err)
}

/** Asserts that `promise` rejects with an IcebergError of the given HTTP status (and type, if given). */
async function rejectsWith(promise, status, icebergType) {
  await assert.rejects(promise, (err) => {
    assert.ok(err instanceof IcebergError, `expected an IcebergError, got ${describe(err)}`)
    assert.equal(err.status, status, `expected HTTP ${status}, got ${describe(err)}`)
    if (icebergType) {
      assert.equal(err.icebergType, icebergType, `expected error type ${icebergType}, got ${describe(err)}`)
    }
    return true
  })
}

function currentSchema(metadata) {
  const schema = metadata.schemas.find((s) => s['schema-id'] === metadata['current-schema-id'])
  assert.ok(schema, `current schema ${metadata['current-schema-id']} is not among ${JSON.stringify(metadata.schemas)}`)
  return schema
}

function defaultSpec(metadata) {
  const spec = metadata['partition-specs'].find((s) => s['spec-id'] === metadata['default-spec-id'])
  assert.ok(spec, `default spec ${metadata['default-spec-id']} is not among ${JSON.stringify(metadata['partition-specs'])}`)
  return spec
}

const catalog = new IcebergRestCatalog({ baseUrl, warehouse, auth: { type: 'bearer', token } })

const suffix = randomBytes(4).toString('hex')
const ns = { namespace: [`js_e2e_${suffix}`] }
const tableName = 'events'
const table = { namespace: ns.namespace, name: tableName }
const renamed = { namespace: ns.namespace, name: 'events_renamed' }
const nsProperties = { owner: 'e2e', purpose: 'iceberg-js lifecycle' }

let created // TableMetadata returned by createTable
let firstMetadataLocation

await step('GET /v1/config returns the warehouse prefix', async () => {
  const config = await catalog.loadConfig()
  assert.equal(typeof config.overrides?.prefix, 'string', `config without overrides.prefix: ${JSON.stringify(config)}`)
  assert.ok(config.overrides.prefix.length > 0)
})

await step('create namespace with properties', async () => {
  const response = await catalog.createNamespace(ns, { properties: nsProperties })
  assert.deepEqual(response.namespace, ns.namespace)
  for (const [k, v] of Object.entries(nsProperties)) {
    assert.equal(response.properties?.[k], v, `property ${k} in ${JSON.stringify(response)}`)
  }
})

await step('creating the same namespace again is a 409 AlreadyExistsException', async () => {
  await rejectsWith(catalog.createNamespace(ns), 409, 'AlreadyExistsException')
})

await step('list namespaces includes the new namespace', async () => {
  const { namespaces } = await catalog.listNamespaces()
  assert.ok(
    namespaces.some((n) => JSON.stringify(n.namespace) === JSON.stringify(ns.namespace)),
    `namespace ${ns.namespace} not in ${JSON.stringify(namespaces)}`,
  )
})

await step('load namespace returns its properties', async () => {
  const metadata = await catalog.loadNamespaceMetadata(ns)
  for (const [k, v] of Object.entries(nsProperties)) {
    assert.equal(metadata.properties[k], v, `property ${k} in ${JSON.stringify(metadata)}`)
  }
  assert.equal(await catalog.namespaceExists(ns), true)
})

await step('update namespace properties', async () => {
  const response = await catalog.updateNamespaceProperties(ns, { updates: { stage: 'test' }, removals: ['purpose'] })
  assert.deepEqual(response.updated, ['stage'])
  assert.deepEqual(response.removed, ['purpose'])
  const metadata = await catalog.loadNamespaceMetadata(ns)
  assert.equal(metadata.properties.stage, 'test')
  assert.equal(metadata.properties.owner, 'e2e')
  assert.equal('purpose' in metadata.properties, false)
})

await step('create table with a schema, a partition spec and a sort order', async () => {
  created = await catalog.createTable(ns, {
    name: tableName,
    schema: {
      type: 'struct',
      fields: [
        { id: 1, name: 'id', type: 'long', required: true },
        { id: 2, name: 'ts', type: 'timestamptz', required: true },
        { id: 3, name: 'category', type: 'string', required: false },
        { id: 4, name: 'amount', type: 'decimal(10,2)', required: false },
      ],
      'identifier-field-ids': [1],
    },
    // No partition field-ids: the server assigns them. (A spec without spec-id is tried at the end.)
    'partition-spec': {
      'spec-id': 0,
      fields: [
        { 'source-id': 2, name: 'ts_day', transform: 'day' },
        { 'source-id': 3, name: 'category', transform: 'identity' },
      ],
    },
    'write-order': {
      'order-id': 1,
      fields: [{ 'source-id': 1, transform: 'identity', direction: 'asc', 'null-order': 'nulls-first' }],
    },
    properties: { 'write.format.default': 'parquet', 'e2e.created-by': 'iceberg-js' },
  })
  assert.match(created['table-uuid'], /^[0-9a-f-]{36}$/)
  assert.ok(created['format-version'] >= 2, `format-version ${created['format-version']}`)
  assert.ok(created.location?.includes(tableName), `location ${created.location}`)
  assert.deepEqual(currentSchema(created).fields.map((f) => [f.name, f.type, f.required]), [
    ['id', 'long', true],
    ['ts', 'timestamptz', true],
    ['category', 'string', false],
    ['amount', 'decimal(10, 2)', false],
  ])
  const spec = defaultSpec(created)
  assert.deepEqual(spec.fields.map((f) => [f.name, f['source-id'], f.transform]), [
    ['ts_day', 2, 'day'],
    ['category', 3, 'identity'],
  ])
  for (const f of spec.fields) {
    assert.ok(f['field-id'] >= 1000, `partition field-id ${f['field-id']}`)
  }
  const order = created['sort-orders'].find((o) => o['order-id'] === created['default-sort-order-id'])
  assert.equal(order?.fields.length, 1, `sort orders ${JSON.stringify(created['sort-orders'])}`)
  assert.equal(created.properties['e2e.created-by'], 'iceberg-js')
  assert.equal(created.properties['write.format.default'], 'parquet')
  assert.equal(created['current-snapshot-id'] ?? -1, -1)
})

await step('creating the same table again is a 409 AlreadyExistsException', async () => {
  await rejectsWith(
    catalog.createTable(ns, { name: tableName, schema: { type: 'struct', fields: [{ id: 1, name: 'x', type: 'int', required: false }] } }),
    409,
    'AlreadyExistsException',
  )
})

await step('list tables includes the new table', async () => {
  const { identifiers } = await catalog.listTables(ns)
  assert.deepEqual(identifiers, [table])
})

await step('load table returns the created metadata', async () => {
  const result = await catalog.loadTableResult(table)
  assert.ok(result['metadata-location'], `no metadata-location in ${JSON.stringify(result)}`)
  firstMetadataLocation = result['metadata-location']
  const loaded = result.metadata
  assert.equal(loaded['table-uuid'], created['table-uuid'])
  assert.deepEqual(currentSchema(loaded), currentSchema(created))
  assert.deepEqual(defaultSpec(loaded), defaultSpec(created))
  assert.equal(loaded.properties['e2e.created-by'], 'iceberg-js')
  assert.equal(await catalog.tableExists(table), true)
})

await step('commit: set and remove table properties', async () => {
  const response = await catalog.updateTable(table, {
    requirements: [{ type: 'assert-table-uuid', uuid: created['table-uuid'] }],
    updates: [
      { action: 'set-properties', updates: { 'e2e.stage': 'committed', 'commit.retry.num-retries': '7' } },
      { action: 'remove-properties', removals: ['e2e.created-by'] },
    ],
  })
  assert.notEqual(response['metadata-location'], firstMetadataLocation)
  assert.equal(response.metadata.properties['e2e.stage'], 'committed')
  assert.equal(response.metadata.properties['commit.retry.num-retries'], '7')
  assert.equal('e2e.created-by' in response.metadata.properties, false)
})

await step('commit: evolve the schema (add a column)', async () => {
  const schema = currentSchema(created)
  const response = await catalog.commitTable(table, {
    requirements: [
      { type: 'assert-table-uuid', uuid: created['table-uuid'] },
      { type: 'assert-current-schema-id', 'current-schema-id': created['current-schema-id'] },
      { type: 'assert-last-assigned-field-id', 'last-assigned-field-id': created['last-column-id'] },
    ],
    updates: [
      {
        action: 'add-schema',
        schema: {
          type: 'struct',
          'schema-id': schema['schema-id'] + 1,
          'identifier-field-ids': [1],
          fields: [...schema.fields, { id: created['last-column-id'] + 1, name: 'note', type: 'string', required: false }],
        },
        'last-column-id': created['last-column-id'] + 1,
      },
      { action: 'set-current-schema', 'schema-id': -1 },
    ],
  })
  assert.deepEqual(currentSchema(response.metadata).fields.map((f) => f.name), ['id', 'ts', 'category', 'amount', 'note'])
})

await step('a commit with a stale requirement is a 409 CommitFailedException', async () => {
  await rejectsWith(
    catalog.updateTable(table, {
      requirements: [{ type: 'assert-current-schema-id', 'current-schema-id': created['current-schema-id'] }],
      updates: [{ action: 'set-properties', updates: { 'e2e.stage': 'stale' } }],
    }),
    409,
    'CommitFailedException',
  )
})

await step('load table again shows both commits and not the rejected one', async () => {
  const loaded = await catalog.loadTable(table)
  assert.equal(loaded['table-uuid'], created['table-uuid'])
  assert.equal(loaded.properties['e2e.stage'], 'committed')
  assert.equal(loaded.properties['commit.retry.num-retries'], '7')
  assert.equal('e2e.created-by' in loaded.properties, false)
  assert.equal(loaded.schemas.length, 2)
  assert.deepEqual(currentSchema(loaded).fields.map((f) => f.name), ['id', 'ts', 'category', 'amount', 'note'])
  assert.ok((loaded['metadata-log'] ?? []).length >= 2, `metadata-log ${JSON.stringify(loaded['metadata-log'])}`)
})

await step('rename table', async () => {
  await catalog.renameTable({ source: table, destination: renamed })
  assert.equal(await catalog.tableExists(table), false)
  const loaded = await catalog.loadTable(renamed)
  assert.equal(loaded['table-uuid'], created['table-uuid'])
})

await step('dropping a non-empty namespace is a 409', async () => {
  await rejectsWith(catalog.dropNamespace(ns), 409, 'NamespaceNotEmptyException')
})

await step('drop table', async () => {
  await catalog.dropTable(renamed)
  assert.equal(await catalog.tableExists(renamed), false)
  const { identifiers } = await catalog.listTables(ns)
  assert.deepEqual(identifiers, [])
})

await step('loading a missing table is a 404 NoSuchTableException', async () => {
  await rejectsWith(catalog.loadTable(renamed), 404, 'NoSuchTableException')
  await rejectsWith(catalog.loadTable({ namespace: ns.namespace, name: 'never_existed' }), 404, 'NoSuchTableException')
})

await step('dropping a missing table is a 404 NoSuchTableException', async () => {
  await rejectsWith(catalog.dropTable(renamed), 404, 'NoSuchTableException')
})

await step('drop namespace', async () => {
  await catalog.dropNamespace(ns)
  assert.equal(await catalog.namespaceExists(ns), false)
  const { namespaces } = await catalog.listNamespaces()
  assert.ok(!namespaces.some((n) => JSON.stringify(n.namespace) === JSON.stringify(ns.namespace)))
})

await step('loading a missing namespace is a 404 NoSuchNamespaceException', async () => {
  await rejectsWith(catalog.loadNamespaceMetadata(ns), 404, 'NoSuchNamespaceException')
  await rejectsWith(catalog.listTables(ns), 404, 'NoSuchNamespaceException')
})

await step('a request with an invalid bearer token is a 401', async () => {
  const bad = new IcebergRestCatalog({ baseUrl, warehouse, auth: { type: 'bearer', token: 'not-a-valid-token' } })
  await rejectsWith(bad.listNamespaces(), 401)
})

// Last, so that a failure here does not hide the steps above.
await step('create table with a partition spec without spec-id (optional, read-only in the REST spec)', async () => {
  const ns2 = { namespace: [`js_e2e_${suffix}_spec`] }
  await catalog.createNamespace(ns2)
  const metadata = await catalog.createTable(ns2, {
    name: 'unbound_spec',
    schema: { type: 'struct', fields: [{ id: 1, name: 'category', type: 'string', required: false }] },
    'partition-spec': { fields: [{ 'source-id': 1, name: 'category', transform: 'identity' }] },
  })
  assert.deepEqual(defaultSpec(metadata).fields.map((f) => [f.name, f['source-id'], f.transform]), [['category', 1, 'identity']])
  await catalog.dropTable({ namespace: ns2.namespace, name: 'unbound_spec' })
  await catalog.dropNamespace(ns2)
})

console.log(`lifecycle: all ${stepCount} steps passed`)
