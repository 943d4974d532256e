// Vending health: what /metrics (public, Prometheus text) says about credential vending, access
// delegation, the audit writer and token throttling, in plain words. Rates are the change between
// two refreshes divided by the time between them.
import { useEffect, useState } from "preact/hooks";
import { ApiError, metricsText } from "../api";
import { labelValues, parseMetrics, value, type Sample } from "../metrics";
import { Checkbox, DataTable, ErrorBox, asApiError, formatTime } from "../ui";

interface Snapshot {
  samples: Sample[];
  at: number; // Date.now() when read
}

interface Readings {
  current: Snapshot | null;
  previous: Snapshot | null;
}

const AUTO_REFRESH_MS = 10_000;

export function Health() {
  const [readings, setReadings] = useState<Readings>({ current: null, previous: null });
  const { current, previous } = readings;
  const [error, setError] = useState<ApiError | undefined>();
  const [busy, setBusy] = useState(false);
  const [auto, setAuto] = useState(false);

  async function refresh() {
    setBusy(true);
    try {
      const text = await metricsText();
      const next = { samples: parseMetrics(text), at: Date.now() };
      setReadings((r) => ({ current: next, previous: r.current }));
      setError(undefined);
    } catch (e) {
      setError(asApiError(e)); // the last good reading stays on screen
    } finally {
      setBusy(false);
    }
  }

  useEffect(() => {
    refresh();
  }, []);
  useEffect(() => {
    if (!auto) {
      return;
    }
    const timer = setInterval(refresh, AUTO_REFRESH_MS);
    return () => clearInterval(timer);
  }, [auto]);

  const delta = new Delta(current, previous);
  return (
    <section aria-labelledby="health-title">
      <h1 id="health-title">Vending health</h1>
      <p class="muted">
        From the server's <code>/metrics</code>, counted since it started. A rate (per second) shows
        what changed between the last two readings.
      </p>
      <div class="buttons refresh-bar">
        <button type="button" onClick={refresh} disabled={busy}>
          Refresh
        </button>
        <Checkbox label="Refresh every 10 seconds" checked={auto} onChange={setAuto} />
        <span class="muted small" role="status">
          {current ? `Read at ${formatTime(current.at)}` : "Reading…"}
          {delta.seconds ? `, ${delta.seconds.toFixed(1)} s after the reading before` : ""}
        </span>
      </div>
      <ErrorBox error={error} />
      {current ? (
        <>
          <Vending delta={delta} />
          <DelegationRequests delta={delta} />
          <AuditWriter delta={delta} />
          <TokenThrottling delta={delta} />
        </>
      ) : null}
    </section>
  );
}

/** Values of the current reading and their change per second since the previous one. */
class Delta {
  readonly seconds: number | undefined;

  constructor(
    private readonly current: Snapshot | null,
    private readonly previous: Snapshot | null,
  ) {
    const dt = current && previous ? (current.at - previous.at) / 1000 : 0;
    this.seconds = dt > 0 ? dt : undefined;
  }

  now(name: string, labels: Record<string, string> = {}): number | undefined {
    return this.current ? value(this.current.samples, name, labels) : undefined;
  }

  /** Δcount/Δt; undefined without two readings, or when the counter went back (a restart). */
  rate(name: string, labels: Record<string, string> = {}): number | undefined {
    const now = this.now(name, labels);
    const before = this.previous ? value(this.previous.samples, name, labels) : undefined;
    if (now === undefined || before === undefined || !this.seconds || now < before) {
      return undefined;
    }
    return (now - before) / this.seconds;
  }

  labels(prefix: string, label: string): string[] {
    return this.current ? labelValues(this.current.samples, prefix, label) : [];
  }
}

// ------------------------------------------------------------------ sections

const VENDING = "sluice_vending_";
// Counted by VendingService per backend; the timer is VendorMetrics' (one per provider call).
const HITS = "sluice_vending_cache_hits_total";
const MISSES = "sluice_vending_cache_misses_total";
const MINTS = "sluice_vending_provider_calls_total";
const ERRORS = "sluice_vending_errors_total";
const LATENCY = "sluice_vending_provider_latency_seconds";

interface BackendRow {
  backend: string;
  tag: Record<string, string>;
}

function Vending({ delta }: { delta: Delta }) {
  const rows: BackendRow[] = delta
    .labels(VENDING, "backend")
    .map((backend) => ({ backend, tag: { backend } }));
  return (
    <section aria-labelledby="vending-title">
      <h2 id="vending-title">Credential vending</h2>
      {rows.length === 0 ? (
        <p class="muted">
          No vending yet: the server has not vended credentials for a single table since it started (its
          vending meters appear with the first request for credentials).
        </p>
      ) : (
        <>
          <DataTable
            caption="Credential vending by storage backend"
            rows={rows}
            columns={[
              { title: "Backend", cell: (r) => <strong>{r.backend}</strong> },
              {
                title: "Credential requests",
                cell: (r) => countAndRate(delta, HITS, MISSES, r.tag),
              },
              { title: "Cache hits", cell: (r) => counter(delta, HITS, r.tag) },
              { title: "Cache misses", cell: (r) => counter(delta, MISSES, r.tag) },
              { title: "Cache hit rate", cell: (r) => hitRate(delta, r.tag) },
              {
                title: "Credentials minted",
                cell: (r) => counter(delta, MINTS, r.tag),
              },
              {
                title: "Provider calls (STS, token exchange)",
                cell: (r) => counter(delta, `${LATENCY}_count`, r.tag),
              },
              { title: "Mean provider latency", cell: (r) => meanLatency(delta, r.tag) },
              {
                title: "Slowest recent provider call",
                cell: (r) => seconds(delta.now(`${LATENCY}_max`, r.tag)),
              },
              { title: "Failed vends", cell: (r) => errors(delta, r.tag) },
            ]}
          />
          <p class="muted small">
            Credential requests are the cache hits plus misses. A miss mints credentials through the
            backend's provider (one call even when many requests miss the same key at once);
            failures are not cached. Slowest recent call: the maximum over the last few minutes.
          </p>
        </>
      )}
    </section>
  );
}

const DELEGATION = "sluice_access_delegation_requests_total";
const DELEGATION_KINDS: Record<string, string> = {
  "vended-credentials": "Vended credentials",
  "remote-signing": "Remote signing",
  none: "No delegation asked",
};

function DelegationRequests({ delta }: { delta: Delta }) {
  const kinds = delta.labels(DELEGATION, "requested");
  return (
    <section aria-labelledby="delegation-title">
      <h2 id="delegation-title">Access delegation</h2>
      <DataTable
        caption="Table responses by the access delegation the client asked for"
        rows={kinds}
        empty="the server reports no such meter."
        columns={[
          { title: "Client asked for", cell: (k) => DELEGATION_KINDS[k] ?? k },
          { title: "Table responses", cell: (k) => counter(delta, DELEGATION, { requested: k }) },
        ]}
      />
    </section>
  );
}

interface Measure {
  title: string;
  name: string;
  gauge?: boolean;
  /** Any count above zero means data was lost: the row is marked. */
  loss?: boolean;
}

function AuditWriter({ delta }: { delta: Delta }) {
  const measures: Measure[] = [
    {
      title: "Events waiting to be written (queue depth)",
      name: "sluice_audit_queue_depth",
      gauge: true,
    },
    { title: "Dropped because the queue was full", name: "sluice_audit_dropped_total", loss: true },
    { title: "Refused by the database, stored in a safe form", name: "sluice_audit_refused_total" },
    { title: "Lost: refused even in the safe form", name: "sluice_audit_lost_total", loss: true },
  ];
  return (
    <section aria-labelledby="audit-writer-title">
      <h2 id="audit-writer-title">Audit log writer</h2>
      <MeasureTable
        caption="Audit events queued, dropped and refused"
        measures={measures}
        delta={delta}
      />
    </section>
  );
}

function TokenThrottling({ delta }: { delta: Delta }) {
  const measures: Measure[] = [
    {
      title: "Token requests refused (429) after too many failed attempts",
      name: "sluice_auth_token_throttled_total",
    },
  ];
  return (
    <section aria-labelledby="tokens-title">
      <h2 id="tokens-title">Token throttling</h2>
      <MeasureTable caption="Token requests refused" measures={measures} delta={delta} />
    </section>
  );
}

function MeasureTable({
  caption,
  measures,
  delta,
}: {
  caption: string;
  measures: Measure[];
  delta: Delta;
}) {
  return (
    <DataTable
      caption={caption}
      rows={measures}
      columns={[
        { title: "Measure", cell: (m) => m.title },
        {
          title: "Value",
          cell: (m) => (m.gauge ? whole(delta.now(m.name)) : counter(delta, m.name)),
        },
      ]}
      rowClass={(m) => (m.loss && (delta.now(m.name) ?? 0) > 0 ? "failed" : undefined)}
    />
  );
}

// ------------------------------------------------------------------ cells

function counter(delta: Delta, name: string, labels: Record<string, string> = {}) {
  const now = delta.now(name, labels);
  if (now === undefined) {
    return <span class="muted">none yet</span>;
  }
  return (
    <>
      {whole(now)}
      <Rate perSecond={delta.rate(name, labels)} />
    </>
  );
}

function countAndRate(delta: Delta, a: string, b: string, labels: Record<string, string>) {
  const x = delta.now(a, labels);
  const y = delta.now(b, labels);
  if (x === undefined && y === undefined) {
    return <span class="muted">none yet</span>;
  }
  const ra = delta.rate(a, labels);
  const rb = delta.rate(b, labels);
  return (
    <>
      {whole((x ?? 0) + (y ?? 0))}
      <Rate perSecond={ra === undefined || rb === undefined ? undefined : ra + rb} />
    </>
  );
}

/** Only when something changed between the two readings: a column of "0/s" says nothing. */
function Rate({ perSecond }: { perSecond: number | undefined }) {
  if (perSecond === undefined || perSecond === 0) {
    return null;
  }
  const shown = perSecond < 10 ? perSecond.toFixed(2) : perSecond.toFixed(0);
  return <span class="muted small rate"> ({shown}/s)</span>;
}

function hitRate(delta: Delta, tag: Record<string, string>) {
  const hits = delta.now(HITS, tag) ?? 0;
  const misses = delta.now(MISSES, tag) ?? 0;
  if (hits + misses === 0) {
    return <span class="muted">no vends yet</span>;
  }
  return `${((100 * hits) / (hits + misses)).toFixed(1)} %`;
}

function meanLatency(delta: Delta, tag: Record<string, string>) {
  const count = delta.now(`${LATENCY}_count`, tag);
  const sum = delta.now(`${LATENCY}_sum`, tag);
  if (!count || sum === undefined) {
    return <span class="muted">no provider call yet</span>;
  }
  return seconds(sum / count);
}

function errors(delta: Delta, tag: Record<string, string>) {
  const cell = counter(delta, ERRORS, tag);
  return delta.now(ERRORS, tag) ? <span class="badge bad">{cell}</span> : cell;
}

function whole(n: number | undefined): string {
  return n === undefined ? "—" : Math.round(n).toLocaleString("en");
}

function seconds(s: number | undefined): string {
  if (s === undefined || Number.isNaN(s)) {
    return "—";
  }
  return s < 1 ? `${(s * 1000).toFixed(1)} ms` : `${s.toFixed(2)} s`;
}
