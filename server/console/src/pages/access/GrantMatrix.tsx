// One catalog role's grants as a matrix: a table per securable kind, a row per securable that has
// grants (plus rows the user adds), a column per privilege; each checkbox grants or revokes at once.
import { useState } from "preact/hooks";
import { useCatalogActions } from "../../actions";
import { ApiError, addGrant, all, listGrants, revokeGrant, type PageQuery } from "../../api";
import { Async, ErrorBox, asApiError, useLoad } from "../../ui";
import {
  grantBody,
  parseNamespace,
  privilegesFor,
  securableKey,
  securableLabel,
  securableOfGrant,
  type Privilege,
  type Securable,
  type SecurableType,
} from "./common";

const KINDS: { type: SecurableType; title: string }[] = [
  { type: "catalog", title: "Catalog" },
  { type: "namespace", title: "Namespaces" },
  { type: "table", title: "Tables" },
  { type: "view", title: "Views" },
];

export function GrantMatrix({ catalog, role }: { catalog: string; role: string }) {
  const grants = useLoad(
    () => all((page: PageQuery) => listGrants(catalog, role, page), "grants"),
    [catalog, role],
  );
  // Boxes the caller may not change are shown, not offered (read-only when the server says so).
  const actions = useCatalogActions(catalog);
  const may = {
    grant: actions.data?.has("addGrant") ?? false,
    revoke: actions.data?.has("revokeGrant") ?? false,
  };
  const [added, setAdded] = useState<Securable[]>([]);
  const [error, setError] = useState<ApiError | undefined>();
  const [busy, setBusy] = useState<string | null>(null);
  // What this page set, shown at once (before the list reloads); dropped again if refused.
  const [shown, setShown] = useState<Map<string, boolean>>(new Map());

  async function toggle(s: Securable, privilege: Privilege, grant: boolean) {
    const cell = `${securableKey(s)}|${privilege}`;
    setBusy(cell);
    setError(undefined);
    setShown((m) => new Map(m).set(cell, grant));
    try {
      if (grant) {
        await addGrant(catalog, role, grantBody(s, privilege));
      } else {
        await revokeGrant(catalog, role, grantBody(s, privilege));
      }
      grants.reload();
    } catch (e) {
      setError(asApiError(e));
      setShown((m) => {
        const next = new Map(m);
        next.delete(cell);
        return next;
      });
    } finally {
      setBusy(null);
    }
  }

  return (
    <section aria-labelledby="grants-title">
      <h3 id="grants-title">
        Grants of {role} in {catalog}
      </h3>
      <p class="muted small">
        Each box grants or revokes at once. A grant on the catalog or a namespace reaches everything
        below it.
      </p>
      <div aria-live="polite">
        <ErrorBox error={error} />
      </div>
      <Async loaded={grants}>
        {(rows) => {
          const held = new Set(rows.map((g) => `${securableKey(securableOfGrant(g))}|${g.privilege}`));
          shown.forEach((on, cell) => (on ? held.add(cell) : held.delete(cell)));
          const securables = new Map<string, Securable>();
          securables.set(securableKey({ type: "catalog", namespace: [], name: "" }), {
            type: "catalog",
            namespace: [],
            name: "",
          });
          for (const s of [...rows.map(securableOfGrant), ...added]) {
            securables.set(securableKey(s), s);
          }
          return (
            <>
              {KINDS.map((k) => {
                const of = [...securables.values()].filter((s) => s.type === k.type);
                return of.length === 0 ? null : (
                  <Matrix
                    title={k.title}
                    type={k.type}
                    role={role}
                    securables={of}
                    held={held}
                    busy={busy}
                    may={may}
                    toggle={toggle}
                  />
                );
              })}
            </>
          );
        }}
      </Async>
      {may.grant ? <AddSecurable onAdd={(s) => setAdded((a) => [...a, s])} /> : null}
    </section>
  );
}

function groupOf(privilege: string): string {
  const prefix = privilege.split("_")[0];
  return prefix.charAt(0) + prefix.slice(1).toLowerCase();
}

function Matrix(props: {
  title: string;
  type: SecurableType;
  role: string;
  securables: Securable[];
  held: Set<string>;
  busy: string | null;
  may: { grant: boolean; revoke: boolean };
  toggle: (s: Securable, privilege: Privilege, grant: boolean) => void;
}) {
  const columns = privilegesFor(props.type);
  const groups: { name: string; span: number }[] = [];
  for (const p of columns) {
    const g = groupOf(p);
    const last = groups[groups.length - 1];
    if (last && last.name === g) {
      last.span++;
    } else {
      groups.push({ name: g, span: 1 });
    }
  }
  return (
    <div class="matrix-wrap">
      <table class="matrix">
        <caption>
          {props.title}: grants of {props.role}
        </caption>
        <thead>
          <tr>
            <td />
            {groups.map((g) => (
              <th scope="colgroup" colSpan={g.span}>
                {g.name}
              </th>
            ))}
          </tr>
          <tr>
            <th scope="col">Securable</th>
            {columns.map((p) => (
              <th scope="col" title={p}>
                {p.replace(/^[A-Z]+_/, "").replace(/_/g, " ").toLowerCase()}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.securables.map((s) => {
            const label = securableLabel(s);
            return (
              <tr>
                <th scope="row">{label}</th>
                {columns.map((p) => {
                  const cell = `${securableKey(s)}|${p}`;
                  const checked = props.held.has(cell);
                  return (
                    <td>
                      <input
                        type="checkbox"
                        checked={checked}
                        disabled={props.busy === cell || !(checked ? props.may.revoke : props.may.grant)}
                        aria-label={`${p} on ${label} for role ${props.role}`}
                        onChange={() => props.toggle(s, p, !checked)}
                      />
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Adds a row for a namespace, table or view that has no grant yet. */
function AddSecurable({ onAdd }: { onAdd: (s: Securable) => void }) {
  const [type, setType] = useState<SecurableType>("namespace");
  const [namespace, setNamespace] = useState("");
  const [name, setName] = useState("");
  const [problem, setProblem] = useState("");
  return (
    <form
      class="inline-form"
      aria-label="Add a securable row"
      onSubmit={(e) => {
        e.preventDefault();
        const levels = parseNamespace(namespace);
        if (levels.length === 0) {
          setProblem("Give a namespace, levels separated by dots (a.b).");
          return;
        }
        if (type !== "namespace" && !name.trim()) {
          setProblem(`Give the ${type}'s name.`);
          return;
        }
        setProblem("");
        onAdd({ type, namespace: levels, name: type === "namespace" ? "" : name.trim() });
        setName("");
      }}
    >
      <div class="field">
        <label for="add-securable-type">Securable type</label>
        <select
          id="add-securable-type"
          value={type}
          onChange={(e) => setType((e.target as HTMLSelectElement).value as SecurableType)}
        >
          {(["namespace", "table", "view"] as const).map((t) => (
            <option value={t}>{t}</option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="add-securable-namespace">Namespace (a.b)</label>
        <input
          id="add-securable-namespace"
          value={namespace}
          aria-describedby={problem ? "add-securable-problem" : undefined}
          onInput={(e) => setNamespace((e.target as HTMLInputElement).value)}
        />
      </div>
      {type === "namespace" ? null : (
        <div class="field">
          <label for="add-securable-name">Name</label>
          <input
            id="add-securable-name"
            value={name}
            onInput={(e) => setName((e.target as HTMLInputElement).value)}
          />
        </div>
      )}
      <button type="submit" class="secondary">
        Add row
      </button>
      {problem ? (
        <small id="add-securable-problem" class="field-error" role="alert">
          {problem}
        </small>
      ) : null}
    </form>
  );
}
