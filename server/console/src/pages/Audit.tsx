// Audit events: the server's decision log, filtered and paged by the API itself. The filter lives
// in the URL fragment (`#/audit/?principal=alice&decision=DENY`) so a filtered view can be linked
// and back/forward move between filters; the page tokens are kept in memory (they only mean
// something for the filter they came from).
import { useEffect, useState } from "preact/hooks";
import { listEvents, type Query, type Schemas } from "../api";
import { DataTable, ErrorBox, Field, Select, formatTime, Time, useLoad, type Column } from "../ui";

/** The API's own query parameter names; the fragment uses the same ones. */
const KEYS = [
  "principal",
  "actor",
  "catalog",
  "securable",
  "decision",
  "from",
  "to",
  "pageSize",
] as const;
type Key = (typeof KEYS)[number];
type Filter = Partial<Record<Key, string>>;

type Event = Schemas["Event"];

/**
 * The filter as listEvents' parameters. The fragment's text goes to the server as typed, numbers
 * as numbers: a malformed one is the server's 400 to explain, as before.
 */
function eventsQuery(filter: Filter, pageToken: string | null): Query<"listEvents"> {
  const number = (v: string | undefined) => (v ? Number(v) : undefined);
  return {
    principal: filter.principal || undefined,
    actor: filter.actor || undefined,
    catalog: filter.catalog || undefined,
    securable: filter.securable || undefined,
    decision: (filter.decision || undefined) as Query<"listEvents">["decision"],
    from: number(filter.from),
    to: number(filter.to),
    pageSize: number(filter.pageSize),
    pageToken: pageToken ?? undefined,
  };
}

/** The page being shown (its token; null for the first) and the tokens of the pages before it. */
interface Paging {
  query: string;
  stack: (string | null)[];
  token: string | null;
}

export function Audit() {
  const filter = useFragmentFilter();
  const query = queryOf(filter);
  // Paging belongs to one filter: a new filter starts again at the first page.
  const [paging, setPaging] = useState<Paging>({ query, stack: [], token: null });
  const current = paging.query === query ? paging : { query, stack: [], token: null };
  // The answer carries the filter and page it is for: rows of another filter never show under
  // this one's caption (the effect that starts a load runs after the render that changed it).
  const key = `${query}#${current.token ?? ""}`;
  const events = useLoad(async () => {
    return { key, answer: await listEvents(eventsQuery(filter, current.token)) };
  }, [key]);
  const answer = !events.loading && events.data?.key === key ? events.data.answer : undefined;

  const page = current.stack.length + 1;
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit events</h1>
      <p class="muted">
        Every authorization decision the server recorded, newest first. The service admin sees all;
        others see the catalogs whose access they manage.
      </p>
      <FilterForm
        filter={filter}
        onApply={(next) => {
          if (queryOf(next) === query) {
            // The same filter again: read the newest events from the first page.
            setPaging({ query, stack: [], token: null });
            events.reload();
          } else {
            location.hash = hrefOf(next); // a history entry: back returns to this filter
          }
        }}
      />
      {events.error && !events.loading ? (
        <ErrorBox error={events.error} />
      ) : answer === undefined ? (
        <p class="muted" aria-busy="true">
          Loading…
        </p>
      ) : (
        <>
          <DataTable
            caption={`Audit events, page ${page}`}
            rows={answer.events ?? []}
            empty="no events match these filters."
            rowClass={(e) => (e.decision === "DENY" ? "denied" : undefined)}
            columns={columns(filter)}
          />
          <nav aria-label="Audit event pages" class="buttons">
            <button
              type="button"
              class="secondary"
              disabled={page === 1}
              onClick={() => setPaging({ query, stack: [], token: null })}
            >
              First page
            </button>
            <button
              type="button"
              class="secondary"
              disabled={page === 1}
              onClick={() =>
                setPaging({
                  query,
                  stack: current.stack.slice(0, -1),
                  token: current.stack[current.stack.length - 1] ?? null,
                })
              }
            >
              Previous page
            </button>
            <button
              type="button"
              disabled={!answer.nextPageToken}
              onClick={() =>
                setPaging({
                  query,
                  stack: [...current.stack, current.token],
                  token: answer.nextPageToken ?? null,
                })
              }
            >
              Next page
            </button>
            <span class="muted small" role="status">
              Page {page}
              {answer.nextPageToken ? "" : " (last)"}
            </span>
          </nav>
        </>
      )}
    </section>
  );
}

/**
 * The table's columns; principal, actor and catalog link to the same filter narrowed to them. An
 * engine that acted for the principal with a delegated token shows under it, "via" the engine.
 */
function columns(filter: Filter): Column<Event>[] {
  return [
    { title: "Time", cell: (e) => <Time millis={e.timestamp} /> },
    {
      title: "Principal",
      cell: (e) => (
        <span>
          <a href={hrefOf({ ...filter, principal: e.principal })}>{e.principal}</a>
          {e.actor ? (
            <>
              <br />
              <span class="muted small">
                via <a href={hrefOf({ ...filter, actor: e.actor })}>{e.actor}</a>
              </span>
            </>
          ) : null}
        </span>
      ),
    },
    { title: "Activated roles", cell: (e) => (e.activatedRoles ?? []).join(", ") },
    { title: "Action", cell: (e) => <code>{e.action}</code> },
    {
      title: "Catalog",
      cell: (e) =>
        e.catalog ? <a href={hrefOf({ ...filter, catalog: e.catalog })}>{e.catalog}</a> : "",
    },
    { title: "Securable", cell: (e) => e.securable ?? "" },
    {
      title: "Decision",
      cell: (e) => (
        <span class={e.decision === "ALLOW" ? "badge ok" : "badge bad"}>{e.decision}</span>
      ),
    },
    { title: "Outcome", cell: (e) => <Outcome event={e} /> },
    { title: "Count", cell: (e) => <Count event={e} /> },
    {
      title: "Client",
      cell: (e) => (
        <span title={e.userAgent ?? ""}>
          {e.clientAddress ?? ""}
          {e.userAgent ? <br /> : null}
          {e.userAgent ? <span class="muted small">{e.userAgent}</span> : null}
        </span>
      ),
    },
    { title: "Request id", cell: (e) => <code class="small">{e.requestId ?? ""}</code> },
    { title: "Detail", cell: (e) => e.detail ?? "" },
  ];
}

/**
 * How the request the decision was made in ended: its status and, for an error, the error's type.
 * An allowed decision whose request then failed (a delete refused with 400) reads as such.
 */
function Outcome({ event }: { event: Event }) {
  if (event.status === undefined) {
    return null;
  }
  const failed = event.status >= 400;
  return (
    <span class={failed ? "badge bad" : "badge ok"} title={event.errorType ?? ""}>
      {event.status}
      {event.errorType ? ` ${event.errorType}` : ""}
    </span>
  );
}

/** Allowed decisions repeated within one write are stored once, with a count and the last time. */
function Count({ event }: { event: Event }) {
  if (!event.count || event.count <= 1) {
    return null;
  }
  return (
    <span>
      ×{event.count}{" "}
      <br />
      <span class="muted small">last {formatTime(event.lastTimestamp)}</span>
    </span>
  );
}

function FilterForm({
  filter,
  onApply,
}: {
  filter: Filter;
  onApply: (filter: Filter) => void;
}) {
  const [draft, setDraft] = useState(() => draftOf(filter));
  const query = queryOf(filter);
  // Back/forward (or a followed link) changes the filter: the form shows it.
  useEffect(() => setDraft(draftOf(filter)), [query]);
  const set = (key: keyof Draft) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));
  return (
    <form
      aria-label="Filter audit events"
      class="filters"
      onSubmit={(e) => {
        e.preventDefault();
        onApply(filterOf(draft));
      }}
    >
      <Field
        label="Principal"
        name="principal"
        value={draft.principal}
        onInput={set("principal")}
      />
      <Field
        label="Actor"
        name="actor"
        value={draft.actor}
        onInput={set("actor")}
        hint="the engine that acted for the principal"
      />
      <Field label="Catalog" name="catalog" value={draft.catalog} onInput={set("catalog")} />
      <Field
        label="Securable"
        name="securable"
        value={draft.securable}
        onInput={set("securable")}
        hint="exact, as shown in the Securable column"
      />
      <Select
        label="Decision"
        value={draft.decision}
        onChange={set("decision")}
        options={[
          { value: "", label: "Any" },
          { value: "ALLOW", label: "Allowed" },
          { value: "DENY", label: "Denied" },
        ]}
      />
      <Field
        label="From"
        name="from"
        type="datetime-local"
        value={draft.from}
        onInput={set("from")}
        hint="your local time, inclusive"
      />
      <Field
        label="To"
        name="to"
        type="datetime-local"
        value={draft.to}
        onInput={set("to")}
        hint="your local time, inclusive"
      />
      <Field
        label="Page size"
        name="pageSize"
        type="number"
        value={draft.pageSize}
        onInput={set("pageSize")}
        hint="1 to 1000; blank means 100"
      />
      <div class="buttons">
        <button type="submit">Apply filters</button>
        <a class="button secondary" href="#/audit">
          Clear filters
        </a>
      </div>
    </form>
  );
}

// ------------------------------------------------------------------ the fragment

function readFilter(): Filter {
  const hash = location.hash;
  const at = hash.indexOf("?");
  const params = new URLSearchParams(at < 0 ? "" : hash.slice(at + 1));
  const filter: Filter = {};
  for (const key of KEYS) {
    const v = params.get(key);
    if (v) {
      filter[key] = v;
    }
  }
  return filter;
}

function useFragmentFilter(): Filter {
  const [filter, setFilter] = useState(readFilter);
  useEffect(() => {
    const update = () => setFilter(readFilter());
    window.addEventListener("hashchange", update);
    return () => window.removeEventListener("hashchange", update);
  }, []);
  return filter;
}

/** The filter as a query string, keys in a fixed order (also the identity of a filter). */
function queryOf(filter: Filter): string {
  const params = new URLSearchParams();
  for (const key of KEYS) {
    const v = filter[key];
    if (v) {
      params.set(key, v);
    }
  }
  return params.toString();
}

/** The link to the audit page showing `filter`. */
function hrefOf(filter: Filter): string {
  const q = queryOf(filter);
  return q ? `#/audit/?${q}` : "#/audit";
}

// ------------------------------------------------------------------ the form

interface Draft {
  principal: string;
  actor: string;
  catalog: string;
  securable: string;
  decision: string;
  from: string; // datetime-local, the browser's time zone
  to: string;
  pageSize: string;
}

function draftOf(f: Filter): Draft {
  return {
    principal: f.principal ?? "",
    actor: f.actor ?? "",
    catalog: f.catalog ?? "",
    securable: f.securable ?? "",
    decision: (f.decision ?? "").toUpperCase(),
    from: localOf(f.from, false),
    to: localOf(f.to, true),
    pageSize: f.pageSize ?? "",
  };
}

function filterOf(d: Draft): Filter {
  return {
    principal: d.principal.trim(),
    actor: d.actor.trim(),
    catalog: d.catalog.trim(),
    securable: d.securable.trim(),
    decision: d.decision,
    from: millisOf(d.from, false),
    to: millisOf(d.to, true),
    pageSize: d.pageSize.trim(),
  };
}

/**
 * A datetime-local value as epoch millis. The server's bounds are inclusive, so "to" covers the
 * whole minute (or second) it names: to 10:15 includes an event at 10:15:40.
 */
function millisOf(local: string, isEnd: boolean): string {
  if (!local) {
    return "";
  }
  const millis = new Date(local).getTime(); // no zone in the string: the browser's local time
  if (Number.isNaN(millis)) {
    return "";
  }
  const withSeconds = /T\d\d:\d\d:\d\d/.test(local);
  return String(isEnd ? millis + (withSeconds ? 999 : 59_999) : millis);
}

/** Epoch millis back to a datetime-local value (seconds only when they matter). */
function localOf(millis: string | undefined, isEnd: boolean): string {
  const n = Number(millis);
  if (!millis || !Number.isFinite(n)) {
    return "";
  }
  let start = n;
  if (isEnd) {
    start = n % 60_000 === 59_999 ? n - 59_999 : n % 1000 === 999 ? n - 999 : n;
  }
  const d = new Date(start);
  const pad = (v: number) => String(v).padStart(2, "0");
  const date = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  const minutes = `${date}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return d.getSeconds() === 0 ? minutes : `${minutes}:${pad(d.getSeconds())}`;
}
