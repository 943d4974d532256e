import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { logout, whenExpired } from "./api";
import { SessionContext, type Session } from "./session";
import { href, useRoute } from "./ui";
import { Login } from "./pages/Login";
import { Catalogs } from "./pages/Catalogs";
import { Browse } from "./pages/Browse";
import { Access } from "./pages/Access";
import { Audit } from "./pages/Audit";
import { Health } from "./pages/Health";
import { ApiReference } from "./pages/ApiReference";

/** The sections, each with whether the caller can use it (Access always: one's own principal). */
const SECTIONS: { path: string; title: string; shown: (s: Session) => boolean }[] = [
  { path: "catalogs", title: "Catalogs", shown: () => true },
  { path: "browse", title: "Browse", shown: () => true },
  { path: "access", title: "Access", shown: () => true },
  { path: "audit", title: "Audit events", shown: (s) => s.actions.has("listEvents") },
  // /metrics is public: nothing to ask.
  { path: "health", title: "Vending health", shown: () => true },
  // The document is public; the page reads it, whoever is signed in.
  { path: "api", title: "API", shown: () => true },
];

function App() {
  const [session, setSession] = useState<Session | null>(null);
  const [expired, setExpired] = useState(false);
  const route = useRoute();
  useEffect(() => {
    whenExpired(() => {
      setSession(null);
      setExpired(true);
    });
  }, []);

  if (!session) {
    return (
      <>
        {expired ? (
          <p class="banner" role="status">
            Your session ended (the token expired or was revoked). Sign in again.
          </p>
        ) : null}
        <Login
          onSignedIn={(s) => {
            setExpired(false);
            setSession(s);
          }}
        />
      </>
    );
  }
  const section = route[0] ?? "catalogs";
  return (
    <SessionContext.Provider value={session}>
      <a class="skip" href="#main" onClick={skipToMain}>
        Skip to content
      </a>
      <header>
        <span class="brand">Sluice</span>
        <nav aria-label="Sections">
          <ul>
            {SECTIONS.filter((s) => s.shown(session)).map((s) => (
              <li>
                <a href={href(s.path)} aria-current={s.path === section ? "page" : undefined}>
                  {s.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who">
          {session.principal}
          {session.serviceAdmin ? " (service admin)" : ""}
        </span>
        <button
          class="link"
          onClick={() => {
            logout();
            setSession(null);
          }}
        >
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Page section={section} rest={route.slice(1)} />
      </main>
    </SessionContext.Provider>
  );
}

function skipToMain(e: Event) {
  e.preventDefault();
  document.getElementById("main")?.focus();
}

function Page({ section, rest }: { section: string; rest: string[] }) {
  switch (section) {
    case "catalogs":
      return <Catalogs rest={rest} />;
    case "browse":
      return <Browse rest={rest} />;
    case "access":
      return <Access rest={rest} />;
    case "audit":
      return <Audit />;
    case "health":
      return <Health />;
    case "api":
      return <ApiReference />;
    default:
      return <p>No page {section}.</p>;
  }
}

render(<App />, document.getElementById("app")!);
