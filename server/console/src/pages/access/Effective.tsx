// Effective privileges: for a catalog, principal and securable, each privilege held and the
// principal role → catalog role → grant that gives it (the server's explanation endpoint).
import { useState } from "preact/hooks";
import { ApiError, all, explainPrivileges, listCatalogs, type Schemas } from "../../api";
import { useSession } from "../../session";
import { Async, ErrorBox, Field, Select, asApiError, useLoad } from "../../ui";
import { parseNamespace, securableLabel, securableOfGrant, type SecurableType } from "./common";

export function Effective() {
  const session = useSession();
  const catalogs = useLoad(() => all(listCatalogs, "catalogs"), []);
  const [catalog, setCatalog] = useState("");
  const [principal, setPrincipal] = useState(session.principal);
  const [type, setType] = useState<SecurableType>("catalog");
  const [namespace, setNamespace] = useState("");
  const [name, setName] = useState("");
  const [answer, setAnswer] = useState<Schemas["EffectivePrivileges"] | null>(null);
  const [error, setError] = useState<ApiError | undefined>();
  const [busy, setBusy] = useState(false);

  async function explain(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    setAnswer(null);
    try {
      setAnswer(
        await explainPrivileges(catalog, principal.trim(), {
          type,
          namespace: type !== "catalog" ? parseNamespace(namespace) : undefined,
          name: type === "table" || type === "view" ? name.trim() : undefined,
        }),
      );
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="effective-title">
      <h2 id="effective-title">Effective privileges</h2>
      <p class="muted small">
        What a principal may do on a securable, and which principal role, catalog role and grant
        give each privilege.
      </p>
      <form aria-label="Explain effective privileges" onSubmit={explain}>
        <Async loaded={catalogs}>
          {(rows) => (
            <Select
              label="Catalog"
              value={catalog}
              options={[
                { value: "", label: "(choose a catalog)" },
                ...rows.map((c) => ({ value: String(c.name), label: String(c.name) })),
              ]}
              onChange={setCatalog}
            />
          )}
        </Async>
        <Field label="Principal" name="principal" value={principal} onInput={setPrincipal} required />
        <Select
          label="Securable type"
          value={type}
          options={["catalog", "namespace", "table", "view"].map((t) => ({ value: t, label: t }))}
          onChange={(v) => setType(v as SecurableType)}
        />
        {type === "catalog" ? null : (
          <Field
            label="Namespace"
            name="namespace"
            value={namespace}
            onInput={setNamespace}
            hint="levels separated by dots, e.g. sales.eu"
            error={error?.status === 400 && /namespace/.test(error.message) ? error.message : undefined}
          />
        )}
        {type === "table" || type === "view" ? (
          <Field
            label="Name"
            name="name"
            value={name}
            onInput={setName}
            error={error?.status === 400 && /name:/.test(error.message) ? error.message : undefined}
          />
        ) : null}
        <button type="submit" disabled={busy || !catalog || !principal.trim()}>
          {busy ? "Explaining…" : "Explain"}
        </button>
      </form>
      <ErrorBox error={error} />
      {answer ? <Explanation answer={answer} /> : null}
    </section>
  );
}

function Explanation({ answer }: { answer: Schemas["EffectivePrivileges"] }) {
  const s = answer.securable;
  const target = securableLabel({
    type: s?.type ?? "catalog",
    namespace: s?.namespace ?? [],
    name: s?.name ?? "",
  });
  const privileges = answer.privileges ?? [];
  const caption = `Effective privileges of ${answer.principal} on ${target} in ${answer.catalog}`;
  if (privileges.length === 0) {
    return (
      <p class="muted">
        {caption}: none. {answer.principal} holds no privilege here.
      </p>
    );
  }
  return (
    <table class="explanation">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Privilege</th>
          <th scope="col">Principal role</th>
          <th scope="col">Catalog role</th>
          <th scope="col">Grant</th>
        </tr>
      </thead>
      <tbody>
        {privileges.flatMap((p) =>
          (p.via ?? []).map((v, i) => (
            <tr>
              {i === 0 ? (
                <th scope="rowgroup" rowSpan={p.via?.length}>
                  {p.privilege}
                </th>
              ) : null}
              <td>{v.principalRole}</td>
              <td>{v.catalogRole}</td>
              <td>
                {v.grant ? `${v.grant.privilege} on ${securableLabel(securableOfGrant(v.grant))}` : ""}
              </td>
            </tr>
          )),
        )}
      </tbody>
    </table>
  );
}
