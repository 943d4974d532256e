package dev.sluice.testing;

import dev.sluice.testing.FuzzCorpus.Seed;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Turns the corpus into mutated requests, all from one seed. Requests that change state as root (or
 * a form of root's token) are pointed at the scratch catalog and scratch principals, so the fixture
 * can only change through a real authorization bug.
 */
public final class FuzzRequests {
  /** Who is calling: the Authorization header sent, and whether it is root's own token. */
  public record Caller(String label, String authorization, boolean root, String self) {}

  /** One request to send, and what it was made from (for the failure message and the checks). */
  public record Request(
      int index,
      String caller,
      String method,
      String path,
      String query,
      List<String[]> headers,
      byte[] body,
      boolean tokenEndpoint,
      boolean infrastructureMutated) {

    public byte[] target() {
      return (query == null ? path : path + "?" + query).getBytes(StandardCharsets.UTF_8);
    }

    public String describe() {
      String target = new String(target(), StandardCharsets.UTF_8);
      String text =
          body == null
              ? ""
              : new String(body, 0, Math.min(body.length, 300), StandardCharsets.UTF_8);
      return "#"
          + index
          + " as "
          + caller
          + ": "
          + method
          + " "
          + abbreviate(target, 300)
          + (body == null ? "" : " body[" + body.length + "]=" + text);
    }
  }

  /**
   * The fixed world the requests name: catalogs, namespaces, tables, views, principals, roles,
   * tokens.
   */
  public record World(
      String fixture,
      String scratch,
      String scratchLocation,
      String fixtureMetadata,
      String scratchMetadata,
      String fixtureUuid,
      String scratchUuid,
      String fixtureViewUuid,
      String scratchViewUuid,
      String ordinaryPrincipal,
      String nonePrincipal,
      List<String[]> clientCredentials,
      List<String> tokens,
      List<Caller> callers) {}

  private static final String[] METHODS = {
    "GET",
    "POST",
    "PUT",
    "DELETE",
    "HEAD",
    "PATCH",
    "OPTIONS",
    "TRACE",
    "FOO",
    "get",
    "PROPFIND",
    "M-SEARCH"
  };
  private static final String MISSING = "fz_missing";

  private final World world;
  private final List<Seed> seeds;

  public FuzzRequests(World world, List<Seed> seeds) {
    this.world = world;
    this.seeds = List.copyOf(seeds);
  }

  public List<Request> generate(long seed, int count) {
    Random random = new Random(seed);
    FuzzMutator m = new FuzzMutator(random);
    List<Request> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      out.add(one(i, m));
    }
    return out;
  }

  private Request one(int index, FuzzMutator m) {
    Seed seed = seeds.get(index < seeds.size() ? index : m.random().nextInt(seeds.size()));
    Caller caller = caller(m);
    String method = m.chance(0.04) ? m.pick(METHODS) : seed.method();
    boolean writes = !method.equals("GET") && !method.equals("HEAD");
    Map<String, String> names = names(m, caller, writes);
    String path = fill(seed.path(), names);
    String query = seed.query() == null ? null : fill(seed.query(), names);
    String body = seed.body() == null ? null : fill(seed.body(), names);
    byte[] bodyBytes = body == null ? null : body.getBytes(StandardCharsets.UTF_8);
    List<String[]> headers = new ArrayList<>();
    if (caller.authorization() != null) {
      headers.add(new String[] {"Authorization", caller.authorization()});
    }
    if (body != null) {
      headers.add(
          new String[] {
            "Content-Type", seed.form() ? "application/x-www-form-urlencoded" : "application/json"
          });
    }
    boolean infrastructure = false;
    int mutations = index < seeds.size() || m.chance(0.08) ? 0 : 1 + m.random().nextInt(2);
    for (int i = 0; i < mutations; i++) {
      int kind = m.random().nextInt(body == null ? 4 : 7);
      switch (kind) {
        case 0 -> {
          path = m.path(path);
          infrastructure = true;
        }
        case 1 -> {
          query = m.query(query);
          infrastructure = true;
        }
        case 2 -> {
          headers.addAll(m.headers());
          infrastructure = true;
        }
        case 3 -> {
          if (body == null && m.chance(0.5)) {
            bodyBytes = m.jsonBody("{\"unexpected\":[1,2,3]}");
          } else {
            headers.add(
                new String[] {
                  "Content-Type", m.pick(new String[] {"text/plain", "application/xml", "garbage"})
                });
          }
        }
        default -> bodyBytes = seed.form() ? m.formBody(body) : m.jsonBody(body);
      }
    }
    boolean tokenEndpoint = method.equals("POST") && seed.path().equals(FuzzCorpus.TOKEN_PATH);
    return new Request(
        index,
        caller.label(),
        method,
        path,
        query,
        headers,
        bodyBytes,
        tokenEndpoint,
        infrastructure);
  }

  /**
   * Root 40 %, the ordinary principal 25 %, the principal without grants 10 %, a broken or foreign
   * token 25 %.
   */
  private Caller caller(FuzzMutator m) {
    double r = m.random().nextDouble();
    List<Caller> all = world.callers();
    String group = r < 0.4 ? "root" : r < 0.65 ? "ordinary" : r < 0.75 ? "none" : "other";
    List<Caller> candidates =
        all.stream()
            .filter(
                c ->
                    switch (group) {
                      case "root" -> c.root();
                      case "ordinary" -> c.label().equals("ordinary");
                      case "none" -> c.label().equals("none");
                      default ->
                          !c.root() && !c.label().equals("ordinary") && !c.label().equals("none");
                    })
            .toList();
    return m.pick(candidates);
  }

  /**
   * Placeholder values; writes as root stay in the scratch catalog and on scratch principals and
   * roles.
   */
  private Map<String, String> names(FuzzMutator m, Caller caller, boolean writes) {
    boolean confined = caller.root() && writes;
    String catalog =
        confined
            ? world.scratch()
            : m.pick(new String[] {world.fixture(), world.scratch(), MISSING});
    boolean fixture = catalog.equals(world.fixture());
    String fresh = "fz" + m.random().nextInt(40);
    List<String> principals =
        new ArrayList<>(
            List.of(
                "root",
                world.ordinaryPrincipal(),
                world.nonePrincipal(),
                "fz_scratch",
                "fz_nobody"));
    if (writes) {
      principals.remove(
          caller.self()); // rotating one's own secret would end the caller's part of the run
    }
    String[] credentials = m.pick(world.clientCredentials());
    return Map.ofEntries(
        Map.entry("c", catalog),
        Map.entry(
            "ns",
            fixture
                ? m.pick(new String[] {"fns", "fns", "fz_nons"})
                : m.pick(new String[] {"sns", "sns", fresh})),
        Map.entry(
            "t",
            fixture
                ? m.pick(new String[] {"ft", "ft", "fz_not"})
                : m.pick(new String[] {"st", fresh})),
        Map.entry(
            "v",
            fixture
                ? m.pick(new String[] {"fv", "fv", "fz_nov"})
                : m.pick(new String[] {"sv", fresh})),
        Map.entry("p", confined ? m.pick(new String[] {"fz_scratch", fresh}) : m.pick(principals)),
        Map.entry(
            "pr",
            confined
                ? m.pick(new String[] {"fz_scratch_pr", fresh})
                : m.pick(new String[] {"fz_reader", "service_admin", "fz_scratch_pr", "fz_nopr"})),
        Map.entry(
            "cr",
            fixture
                ? m.pick(new String[] {"fix_reader", "catalog_admin", "fz_nocr"})
                : confined
                    ? m.pick(new String[] {"scratch_cr", fresh})
                    : m.pick(new String[] {"scratch_cr", "scratch_writer", fresh})),
        Map.entry("new", fresh),
        Map.entry("loc", world.scratchLocation() + "sns/fz" + m.random().nextInt(1000)),
        Map.entry("wh", world.scratchLocation()),
        Map.entry("meta", m.pick(new String[] {world.fixtureMetadata(), world.scratchMetadata()})),
        Map.entry("uuid", fixture ? world.fixtureUuid() : world.scratchUuid()),
        Map.entry("vuuid", fixture ? world.fixtureViewUuid() : world.scratchViewUuid()),
        Map.entry("clientId", credentials[0]),
        Map.entry("secret", credentials[1]),
        Map.entry("token", m.pick(world.tokens())));
  }

  private static String fill(String template, Map<String, String> names) {
    String out = template;
    for (Map.Entry<String, String> e : names.entrySet()) {
      out = out.replace("{" + e.getKey() + "}", e.getValue());
    }
    return out;
  }

  /**
   * The callers a run mixes: root, an ordinary principal, one with no grants, and broken or foreign
   * token forms.
   */
  public static List<Caller> callers(
      String root,
      String ordinary,
      String ordinaryName,
      String none,
      String noneName,
      String expired,
      String[] rootCredentials) {
    String basic =
        Base64.getEncoder()
            .encodeToString(
                (rootCredentials[0] + ":" + rootCredentials[1]).getBytes(StandardCharsets.UTF_8));
    String tampered = root.substring(0, root.length() - 3) + (root.endsWith("AAA") ? "BBB" : "AAA");
    String unsigned =
        Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8))
            + "."
            + root.split("\\.")[1]
            + ".";
    return List.of(
        new Caller("root", "Bearer " + root, true, "root"),
        new Caller("root", "Bearer " + root, true, "root"),
        new Caller("root", "Bearer " + root, true, "root"),
        new Caller("root(lowercase bearer)", "bearer " + root, true, "root"),
        new Caller("ordinary", "Bearer " + ordinary, false, ordinaryName),
        new Caller("none", "Bearer " + none, false, noneName),
        new Caller("anonymous", null, false, ""),
        new Caller("garbage token", "Bearer garbage", false, ""),
        new Caller("expired root token", "Bearer " + expired, false, ""),
        new Caller("tampered root token", "Bearer " + tampered, false, ""),
        new Caller("alg=none root token", "Bearer " + unsigned, false, ""),
        new Caller("Basic root credentials", "Basic " + basic, false, ""),
        new Caller("empty bearer", "Bearer ", false, ""),
        new Caller("huge bearer", "Bearer " + "x".repeat(12_000), false, ""),
        new Caller("three dots", "Bearer a.b.c", false, ""));
  }

  private static String abbreviate(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max) + "…(" + s.length() + " chars)";
  }
}
