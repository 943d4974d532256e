// The server's refusals read as a person would say them. Only the machine-like shapes are
// rewritten (the authorizer's "… is not authorized for <operation id> on <securable> in catalog
// <c> (needs …)"); every other message is shown as the server wrote it.

const VERBS: Record<string, string> = {
  get: "read",
  load: "read",
  list: "list",
  create: "create",
  update: "change",
  replace: "change",
  drop: "drop",
  delete: "delete",
  rename: "rename",
  register: "register",
  commit: "commit to",
  verify: "run the self-check of",
  rotate: "rotate",
  assign: "assign",
  grant: "grant",
  revoke: "revoke",
  add: "add",
  explain: "explain",
  retire: "retire",
  report: "report metrics of",
};

/** "loadTable" → ["load", "table"]; "listPrincipalRoles" → ["list", "principal roles"]. */
function splitOperation(op: string): [string, string] {
  const words = op.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(" ");
  return [words[0] ?? op, words.slice(1).join(" ")];
}

/** "You may not read table sales.orders in catalog quickstart" for one operation. */
export function describeRefusal(op: string, securable?: string, catalog?: string): string {
  const [verbWord, noun] = splitOperation(op);
  const verb = VERBS[verbWord] ?? verbWord;
  if (!securable) {
    // A service-level operation: catalogs, principals, principal roles, signing keys.
    const what = noun ? (verbWord === "create" || verbWord === "list" ? plural(noun) : noun) : "";
    return `You may not ${verb}${what ? " " + what : ""}`;
  }
  const type = securable.split(" ")[0];
  const where =
    securable === "catalog" ? `catalog ${catalog ?? ""}`.trim() : `${securable}${catalog ? ` in catalog ${catalog}` : ""}`;
  if (!noun || noun === type) {
    return `You may not ${verb} ${where}`;
  }
  const things = verbWord === "create" || verbWord === "list" ? plural(noun) : noun;
  const inside = securable === "catalog" ? where : `${securable}${catalog ? ` of catalog ${catalog}` : ""}`;
  return `You may not ${verb} ${things} in ${inside}`;
}

function plural(noun: string): string {
  return noun.endsWith("s") ? noun : noun + "s";
}

const AUTHORIZER =
  /^Principal '[^']*' with activated principal roles \[[^\]]*\] is not authorized for (\w+)(?: on (.+?) in catalog (.+?))? \((?:needs .*)\)$/;
const VISIBILITY = /^Principal '[^']*' is not authorized for catalog '(.*)' or it does not exist$/;
const MAY_NOT = /^Principal '[^']*' may not (.+)$/;

/** The server's message, rewritten when it is one of the machine-like shapes. */
export function readableMessage(message: string): string {
  const m = AUTHORIZER.exec(message);
  if (m) {
    const [, op, securable, catalog] = m;
    const text = describeRefusal(op, securable, catalog);
    return /needs principal role service_admin/.test(message)
      ? `${text} (only the service admin may).`
      : `${text}.`;
  }
  const v = VISIBILITY.exec(message);
  if (v) {
    return `Catalog ${v[1]} does not exist, or you may not see it.`;
  }
  const n = MAY_NOT.exec(message);
  if (n) {
    return `You may not ${n[1]}${n[1].endsWith(".") ? "" : "."}`;
  }
  return message;
}
