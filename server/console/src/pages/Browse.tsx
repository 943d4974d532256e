// Placeholder until the page is built.
export function Browse({ rest }: { rest: string[] }) {
  return <h1>Browse {rest.join("/")}</h1>;
}
