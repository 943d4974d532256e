// Placeholder until the page is built.
export function Access({ rest }: { rest: string[] }) {
  return <h1>Access {rest.join("/")}</h1>;
}
