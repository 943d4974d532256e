// Placeholder until the page is built.
export function Audit() {
  return <h1>Audit</h1>;
}
