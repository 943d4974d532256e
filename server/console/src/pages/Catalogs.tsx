// Catalogs: the list (what the caller may see), create (service admin), details with edit and the
// storage self-check.
import { useState } from "preact/hooks";
import {
  ApiError,
  all,
  createCatalog,
  deleteCatalog,
  getCatalog,
  listCatalogs,
  updateCatalog,
  verifyCatalog,
  type Schemas,
} from "../api";
import { useCatalogActions } from "../actions";
import { useSession } from "../session";
import { Async, DataTable, ErrorBox, Field, Properties, asApiError, formatTime, Time, go, href, useLoad } from "../ui";
import { CatalogForm, draftOf, emptyDraft, loadStorageKeys, requestOf, type StorageKeys } from "./CatalogForm";
import { VerifyResult } from "./VerifyResult";

export function Catalogs({ rest }: { rest: string[] }) {
  if (rest[0] === "new") {
    return <NewCatalog />;
  }
  if (rest[0]) {
    return <CatalogDetails name={rest[0]} />;
  }
  return <CatalogList />;
}

function CatalogList() {
  const session = useSession();
  const catalogs = useLoad(() => all(listCatalogs, "catalogs"), []);
  return (
    <section aria-labelledby="catalogs-title">
      <div class="title-row">
        <h1 id="catalogs-title">Catalogs</h1>
        {session.actions.hasOr("createCatalog", session.serviceAdmin) ? (
          <a class="button" href={href("catalogs", "new")}>
            New catalog
          </a>
        ) : null}
      </div>
      <Async loaded={catalogs}>
        {(rows) => (
          <DataTable
            caption="Catalogs you can see"
            rows={rows}
            empty="none visible to you."
            columns={[
              { title: "Name", cell: (c) => <a href={href("catalogs", c.name)}>{c.name}</a> },
              { title: "Storage", cell: (c) => c.storageConfigInfo?.storageType },
              { title: "Base location", cell: (c) => <code>{c.properties?.["default-base-location"]}</code> },
              { title: "Updated", cell: (c) => <Time millis={c.lastUpdateTimestamp} /> },
              { title: "", cell: (c) => <a href={href("browse", c.name)}>Browse</a> },
            ]}
          />
        )}
      </Async>
    </section>
  );
}

function NewCatalog() {
  const [created, setCreated] = useState<Schemas["Catalog"] | null>(null);
  const storageKeys = useLoad(loadStorageKeys, []);
  if (created) {
    return (
      <section aria-labelledby="created-title">
        <h1 id="created-title">Catalog {created.name} created</h1>
        <p>
          <a href={href("catalogs", created.name)}>Open {created.name}</a> ·{" "}
          <a href={href("catalogs")}>All catalogs</a>
        </p>
        {created.verification ? <VerifyResult report={created.verification} /> : null}
      </section>
    );
  }
  return (
    <section aria-labelledby="new-title">
      <h1 id="new-title">New catalog</h1>
      <Async loaded={storageKeys}>
        {(keys: StorageKeys) => (
          <CatalogForm
            initial={emptyDraft()}
            storageKeys={keys}
            creating
            storageEditable
            submitLabel="Create catalog"
            onCancel={() => go("catalogs")}
            submit={async (draft, verify) => {
              const { properties, storageConfigInfo } = requestOf(draft, keys);
              const answer = await createCatalog({
                catalog: { name: draft.name.trim(), type: "INTERNAL", properties, storageConfigInfo },
                verify,
              });
              setCreated(answer);
            }}
          />
        )}
      </Async>
    </section>
  );
}

function CatalogDetails({ name }: { name: string }) {
  const session = useSession();
  const catalog = useLoad(
    () => Promise.all([getCatalog(name), loadStorageKeys()]),
    [name],
  );
  const actions = useCatalogActions(name);
  // Buttons appear once the server said what the caller may do (no flash of refused ones).
  const may = (op: string, fallback = true) => actions.data?.hasOr(op, fallback) ?? false;
  const [editing, setEditing] = useState(false);
  const [deleteError, setDeleteError] = useState<ApiError | undefined>();
  return (
    <section aria-labelledby="catalog-title">
      <p class="crumbs">
        <a href={href("catalogs")}>Catalogs</a> /
      </p>
      <div class="title-row">
        <h1 id="catalog-title">{name}</h1>
        <a class="button secondary" href={href("browse", name)}>
          Browse
        </a>
      </div>
      <Async loaded={catalog}>
        {([c, keys]) =>
          editing ? (
            <CatalogForm
              initial={draftOf(c, keys)}
              storageKeys={keys}
              creating={false}
              storageEditable={session.serviceAdmin}
              submitLabel="Save"
              onCancel={() => setEditing(false)}
              submit={async (draft) => {
                const { properties, storageConfigInfo } = requestOf(draft, keys);
                await updateCatalog(name, {
                  currentEntityVersion: c.entityVersion,
                  properties,
                  ...(session.serviceAdmin ? { storageConfigInfo } : {}),
                });
                setEditing(false);
                catalog.reload();
              }}
            />
          ) : (
            <>
              <h2>Properties</h2>
              <Properties values={c.properties} />
              <h2>Storage</h2>
              <StorageInfo info={c.storageConfigInfo} />
              <p class="muted small">
                Created {formatTime(c.createTimestamp)}, updated {formatTime(c.lastUpdateTimestamp)}
                , version {c.entityVersion}.
              </p>
              <div class="buttons">
                {may("updateCatalog") ? <button onClick={() => setEditing(true)}>Edit</button> : null}
                {may("deleteCatalog", session.serviceAdmin) ? (
                  <button
                    class="danger"
                    onClick={async () => {
                      if (!confirm(`Delete catalog ${name}? It must be empty.`)) {
                        return;
                      }
                      try {
                        await deleteCatalog(name);
                        go("catalogs");
                      } catch (e) {
                        setDeleteError(asApiError(e));
                      }
                    }}
                  >
                    Delete
                  </button>
                ) : null}
              </div>
              <ErrorBox error={deleteError} />
              {may("verifyCatalog") ? (
                <Verify name={name} storageType={c.storageConfigInfo?.storageType} />
              ) : null}
            </>
          )
        }
      </Async>
    </section>
  );
}

function StorageInfo({ info }: { info: Schemas["StorageConfigInfo"] | undefined }) {
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(info ?? {})) {
    values[k] = Array.isArray(v) ? v.join(", ") : typeof v === "object" ? JSON.stringify(v) : String(v);
  }
  return <Properties values={values} />;
}

/** The storage self-check: runs on demand, shows one row per check. */
function Verify({ name, storageType }: { name: string; storageType: string | undefined }) {
  const [other, setOther] = useState("");
  const [report, setReport] = useState<Schemas["VerificationReport"] | null>(null);
  const [error, setError] = useState<ApiError | undefined>();
  const [busy, setBusy] = useState(false);
  if (storageType === "FILE") {
    return (
      <>
        <h2>Storage self-check</h2>
        <p class="muted">Local files: nothing is vended, so there is nothing to check.</p>
      </>
    );
  }
  async function run(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    setReport(null);
    try {
      setReport(
        await verifyCatalog(name, other.trim() ? { otherLocation: other.trim() } : {}),
      );
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <section aria-labelledby="verify-title">
      <h2 id="verify-title">Storage self-check</h2>
      <p class="muted">
        Vends credentials for probe tables and proves, against the store itself, that they reach
        only what they should.
      </p>
      <form onSubmit={run} aria-label="Storage self-check">
        <Field
          label="Another bucket or container to probe (optional)"
          name="otherLocation"
          value={other}
          onInput={setOther}
          hint="a location the catalog's role can see but its tables must not, e.g. s3://other-bucket/"
        />
        <button type="submit" disabled={busy}>
          {busy ? "Checking…" : "Run self-check"}
        </button>
      </form>
      <ErrorBox error={error} />
      {report ? <VerifyResult report={report} /> : null}
    </section>
  );
}
