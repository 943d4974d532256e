// Placeholder until the page is built.
export function Health() {
  return <h1>Health</h1>;
}
