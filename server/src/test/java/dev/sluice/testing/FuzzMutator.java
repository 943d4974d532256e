package dev.sluice.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;

/**
 * Seeded mutations of one request's parts: JSON and form bodies, paths, query strings and headers.
 * Every choice comes from the {@link Random} it is given, so a seed replays a run.
 */
public final class FuzzMutator {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /**
   * Stands for a raw JSON fragment in a serialized tree (numbers Jackson cannot hold, deep
   * nesting).
   */
  private static final String RAW = "@@RAW@@";

  private static final String[] WEIRD_STRINGS = {
    "",
    " ",
    "\u0000",
    "\u001f",
    "a\u001fb",
    "..",
    ".",
    "/",
    "a/b",
    "%2F",
    "%",
    "%zz",
    "😀",
    "\uFFFF",
    "\u202Eevil",
    "名前",
    "\r\n",
    "\"",
    "\\",
    "null",
    "true",
    "-1",
    "💩".repeat(50),
    "a\u0000b",
    "${jndi:ldap://x}",
    "<script>",
    "TABLE_READ_DATA",
    "service_admin",
    "catalog_admin",
    "file:/etc",
    "s3://bucket/x",
    "file:///tmp/../etc"
  };
  private static final String[] RAW_VALUES = {
    "1e400",
    "-1e400",
    "123456789012345678901234567890",
    "-9223372036854775809",
    "9223372036854775808",
    "1.5",
    "-0",
    "0.0000000000000000000000001",
    "\"\\ud800\"",
    "\"\\udc00x\"",
    "\"\\u0000\"",
    "[null]",
    "{\"a\":null}",
    "[[[[[]]]]]",
    "{\"\":\"\"}",
    "[1,\"a\",null,{}]",
    "\"" + "x".repeat(70_000) + "\""
  };
  private static final String[] BAD_SEGMENTS = {
    "%",
    "%zz",
    "%00",
    "%2",
    "%1F",
    "%1F%1F",
    "a%1Fb",
    "%1Fa",
    "..",
    ".",
    "",
    "%2E%2E",
    "%2F",
    "%2f..%2f",
    "%C3%28",
    "%FF",
    "%ED%A0%80",
    "%C0%AF",
    "%25",
    "%2525",
    "a;b",
    "a%3Bb",
    "%3F",
    "%23",
    "%20",
    "+",
    "%u0041",
    "%%",
    "%%%",
    "\u00e9",
    "null",
    "x".repeat(300)
  };
  private static final String[] QUERY_PARTS = {
    "warehouse=%",
    "warehouse=%zz",
    "warehouse=",
    "warehouse=%00",
    "pageSize=-1",
    "pageSize=0",
    "pageSize=99999999999999999999",
    "pageSize=abc",
    "pageSize=1.5",
    "pageToken=%%%",
    "pageToken=garbage",
    "pageToken=eyJ4IjoxfQ",
    "pageToken=",
    "parent=%1F",
    "parent=",
    "parent=a%1Fb",
    "parent=%zz",
    "purgeRequested=maybe",
    "planId=1",
    "snapshots=refs",
    "snapshots=%",
    "&&",
    "=",
    "a=b=c",
    "%=%",
    "x=%C3%28",
    "decision=MAYBE",
    "from=abc",
    "to=-1",
    "from=99999999999999999999",
    "principal=%",
    "catalog=%00",
    "%",
    "?",
    "#frag"
  };
  private static final String[] CONTENT_TYPES = {
    "application/json",
    "text/plain",
    "application/x-www-form-urlencoded",
    "application/json; charset=ISO-8859-1",
    "application/json; charset=nonsense",
    "multipart/form-data; boundary=x",
    "garbage",
    "",
    ";;;",
    "application/xml",
    "*/*",
    "application/json; " + "p=v; ".repeat(200)
  };

  private final Random random;

  public FuzzMutator(Random random) {
    this.random = random;
  }

  public Random random() {
    return random;
  }

  public <T> T pick(T[] values) {
    return values[random.nextInt(values.length)];
  }

  public <T> T pick(List<T> values) {
    return values.get(random.nextInt(values.size()));
  }

  public boolean chance(double p) {
    return random.nextDouble() < p;
  }

  // ------------------------------------------------------------------ bodies

  /** A mutated JSON body; {@code json} is valid JSON text. */
  public byte[] jsonBody(String json) {
    int kind = random.nextInt(12);
    switch (kind) {
      case 0:
        return truncate(json.getBytes(StandardCharsets.UTF_8));
      case 1:
        return invalidUtf8(json.getBytes(StandardCharsets.UTF_8));
      case 2:
        return pick(new String[] {
              "",
              "null",
              "[]",
              "{}",
              "\"s\"",
              "1",
              "true",
              "{",
              "}",
              "[",
              "{\"a\":}",
              "{,}",
              "\u00ef\u00bb\u00bf{}",
              "{\"a\":1}{\"b\":2}",
              "{\"a\" 1}",
              "{'a':1}",
              "NaN",
              "{\"a\":NaN}"
            })
            .getBytes(StandardCharsets.UTF_8);
      case 3:
        return deepNesting(json);
      case 4:
        return duplicateField(json);
      default:
        return treeMutation(json, 1 + random.nextInt(3));
    }
  }

  private byte[] treeMutation(String json, int times) {
    JsonNode tree;
    try {
      tree = JSON.readTree(json);
    } catch (Exception e) {
      throw new IllegalStateException("Corpus body is not JSON: " + json, e);
    }
    List<String> raws = new ArrayList<>();
    for (int i = 0; i < times; i++) {
      tree = mutateTree(tree, raws);
    }
    String text;
    try {
      text = JSON.writeValueAsString(tree);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    for (String raw : raws) {
      text =
          text.replaceFirst(
              java.util.regex.Pattern.quote("\"" + RAW + "\""),
              java.util.regex.Matcher.quoteReplacement(raw));
    }
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** One change at a random position of the tree; returns the (possibly new) root. */
  private JsonNode mutateTree(JsonNode root, List<String> raws) {
    List<Slot> slots = new ArrayList<>();
    collect(root, slots);
    if (slots.isEmpty()) {
      return NODES.nullNode();
    }
    // Leaves (strings, numbers, map values) are where validation is thinnest: favour them.
    List<Slot> leaves = slots.stream().filter(sl -> sl.node().isValueNode()).toList();
    Slot slot = !leaves.isEmpty() && chance(0.6) ? pick(leaves) : pick(slots);
    int kind = random.nextInt(11);
    if (kind == 0 && slot.parent instanceof ObjectNode object) {
      object.remove(slot.key);
      return root;
    }
    JsonNode replacement =
        switch (kind) {
          case 1, 2, 3 -> NODES.nullNode();
          case 4 -> retype(slot.node());
          case 5, 6 -> TextNode.valueOf(pick(WEIRD_STRINGS));
          case 7 -> TextNode.valueOf("y".repeat(random.nextBoolean() ? 70_000 : 1_000_000));
          case 8 -> {
            raws.add(pick(RAW_VALUES));
            yield TextNode.valueOf(RAW);
          }
          case 9 -> {
            ObjectNode extra = NODES.objectNode();
            extra.set(pick(WEIRD_STRINGS), slot.node());
            yield extra;
          }
          default -> {
            if (slot.node() instanceof ObjectNode o) {
              ObjectNode copy = o.deepCopy();
              copy.putNull(
                  pick(
                      new String[] {
                        "name", "properties", "updates", "type", "a", "namespace", "schema"
                      }));
              yield copy;
            }
            yield NODES.arrayNode().add(slot.node());
          }
        };
    slot.set(replacement);
    return slot.parent == null ? replacement : root;
  }

  private JsonNode retype(JsonNode node) {
    return switch (random.nextInt(7)) {
      case 0 -> NODES.numberNode(random.nextBoolean() ? 42 : -1);
      case 1 -> NODES.booleanNode(true);
      case 2 -> NODES.arrayNode();
      case 3 -> NODES.objectNode();
      case 4 -> TextNode.valueOf(node.toString());
      case 5 -> NODES.arrayNode().add(node).addNull();
      default -> NODES.numberNode(1.5);
    };
  }

  private record Slot(JsonNode parent, String key, int index, JsonNode node) {
    void set(JsonNode value) {
      if (parent instanceof ObjectNode object) {
        object.set(key, value);
      } else if (parent instanceof ArrayNode array) {
        array.set(index, value);
      }
    }
  }

  private static void collect(JsonNode root, List<Slot> out) {
    out.add(new Slot(null, null, -1, root));
    walk(root, out);
  }

  private static void walk(JsonNode node, List<Slot> out) {
    if (node instanceof ObjectNode object) {
      for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
        String name = names.next();
        out.add(new Slot(object, name, -1, object.get(name)));
        walk(object.get(name), out);
      }
    } else if (node instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        out.add(new Slot(array, null, i, array.get(i)));
        walk(array.get(i), out);
      }
    }
  }

  private byte[] truncate(byte[] body) {
    return java.util.Arrays.copyOf(body, body.length == 0 ? 0 : random.nextInt(body.length));
  }

  /**
   * Bytes that are not UTF-8 (a lone continuation byte, an overlong '/', an encoded surrogate,
   * 0xFF).
   */
  private byte[] invalidUtf8(byte[] body) {
    byte[][] bad = {
      {(byte) 0xC3, 0x28},
      {(byte) 0xFF},
      {(byte) 0xC0, (byte) 0xAF},
      {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
      {(byte) 0x80},
      {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}
    };
    int at = insideAString(body);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(body, 0, at);
    out.writeBytes(pick(bad));
    out.write(body, at, body.length - at);
    return out.toByteArray();
  }

  /** A position just after an opening quote when there is one, else anywhere. */
  private int insideAString(byte[] body) {
    List<Integer> quotes = new ArrayList<>();
    for (int i = 0; i < body.length; i++) {
      if (body[i] == '"') {
        quotes.add(i + 1);
      }
    }
    return quotes.isEmpty() ? random.nextInt(body.length + 1) : pick(quotes);
  }

  private byte[] deepNesting(String json) {
    int depth = pick(new Integer[] {150, 250, 1_500, 20_000});
    boolean arrays = random.nextBoolean();
    String open = arrays ? "[" : "{\"a\":";
    String close = arrays ? "]" : "}";
    String nested = open.repeat(depth) + "1" + close.repeat(depth);
    if (random.nextBoolean() && json.startsWith("{") && json.length() > 2) {
      return ("{\"deep\":" + nested + "," + json.substring(1)).getBytes(StandardCharsets.UTF_8);
    }
    return nested.getBytes(StandardCharsets.UTF_8);
  }

  private byte[] duplicateField(String json) {
    try {
      JsonNode tree = JSON.readTree(json);
      if (tree instanceof ObjectNode object && object.size() > 0) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        String name = pick(names);
        String dup =
            JSON.writeValueAsString(name)
                + ":"
                + pick(new String[] {"null", "1", "\"dup\"", "[]", "{}"});
        String text = JSON.writeValueAsString(tree);
        return (random.nextBoolean()
                ? "{" + dup + "," + text.substring(1)
                : text.substring(0, text.length() - 1) + "," + dup + "}")
            .getBytes(StandardCharsets.UTF_8);
      }
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return json.getBytes(StandardCharsets.UTF_8);
  }

  /** A mutated {@code application/x-www-form-urlencoded} body. */
  public byte[] formBody(String form) {
    List<String> pairs = new ArrayList<>(List.of(form.split("&")));
    switch (random.nextInt(8)) {
      case 0 -> pairs.remove(random.nextInt(pairs.size()));
      case 1 -> pairs.add(pick(pairs));
      case 2 -> {
        int i = random.nextInt(pairs.size());
        String key = pairs.get(i).split("=", 2)[0];
        pairs.set(i, key + "=" + pick(BAD_SEGMENTS));
      }
      case 3 ->
          pairs.add(
              pick(
                  new String[] {
                    "scope=PRINCIPAL_ROLE:service_admin",
                    "scope=PRINCIPAL_ROLE%3Aservice_admin",
                    "grant_type=password",
                    "subject_token=garbage",
                    "=",
                    "&",
                    "%zz=1",
                    "scope=" + "PRINCIPAL_ROLE:x ".repeat(500)
                  }));
      case 4 -> {
        return invalidUtf8(form.getBytes(StandardCharsets.UTF_8));
      }
      case 5 -> {
        return truncate(form.getBytes(StandardCharsets.UTF_8));
      }
      case 6 -> {
        return jsonBody("{\"grant_type\":\"client_credentials\",\"client_id\":\"x\"}");
      }
      default -> {
        int i = random.nextInt(pairs.size());
        pairs.set(i, pairs.get(i) + "z".repeat(random.nextBoolean() ? 10 : 100_000));
      }
    }
    return String.join("&", pairs).getBytes(StandardCharsets.UTF_8);
  }

  // ------------------------------------------------------------------ paths, queries, headers

  /** A mutated raw path (no query); may contain bytes that are not ASCII. */
  public String path(String path) {
    List<String> segments = new ArrayList<>(List.of(path.split("/", -1)));
    int i = 1 + random.nextInt(segments.size() - 1);
    switch (random.nextInt(8)) {
      case 0 -> segments.set(i, pick(BAD_SEGMENTS));
      case 1 -> segments.set(i, segments.get(i) + pick(BAD_SEGMENTS));
      case 2 -> segments.add(i, pick(BAD_SEGMENTS));
      case 3 -> segments.remove(i);
      case 4 -> segments.set(i, "y".repeat(random.nextBoolean() ? 5_000 : 70_000));
      case 5 -> segments.add("");
      case 6 -> segments.set(i, segments.get(i).toUpperCase(java.util.Locale.ROOT));
      default -> segments.set(i, pick(BAD_SEGMENTS) + segments.get(i));
    }
    String out = String.join("/", segments);
    return out.startsWith("/") ? out : "/" + out;
  }

  /** A query string with a mutated parameter added (or the original replaced). */
  public String query(String query) {
    String part = pick(QUERY_PARTS);
    if (query == null || query.isEmpty() || random.nextInt(3) == 0) {
      return part;
    }
    return random.nextBoolean() ? query + "&" + part : part + "&" + query;
  }

  /**
   * Headers added to a request: odd content types, access delegation, request ids, huge or odd
   * headers.
   */
  public List<String[]> headers() {
    List<String[]> out = new ArrayList<>();
    switch (random.nextInt(9)) {
      case 0, 1 -> out.add(new String[] {"Content-Type", pick(CONTENT_TYPES)});
      case 2 ->
          out.add(
              new String[] {
                "X-Iceberg-Access-Delegation",
                pick(
                    new String[] {
                      "vended-credentials",
                      "remote-signing",
                      "vended-credentials,remote-signing",
                      "",
                      "garbage",
                      "VENDED-CREDENTIALS",
                      "x".repeat(5_000)
                    })
              });
      case 3 ->
          out.add(
              new String[] {
                "X-Request-ID",
                pick(new String[] {"x".repeat(200), "", "\u00ff\u00fe", "a b", "%zz"})
              });
      case 4 ->
          out.add(new String[] {"X-Huge", "h".repeat(pick(new Integer[] {9_000, 20_000, 70_000}))});
      case 5 -> {
        for (int i = 0; i < 150; i++) {
          out.add(new String[] {"X-Many-" + i, "v" + i});
        }
      }
      case 6 -> out.add(new String[] {"X-Bytes", "\u00c3\u0028\u00ff\u0080"});
      case 7 ->
          out.add(
              new String[] {
                "Accept", pick(new String[] {"text/html", "application/xml", "*/*", "garbage", ""})
              });
      default ->
          out.add(
              new String[] {
                "Content-Encoding", pick(new String[] {"gzip", "br", "identity", "garbage"})
              });
    }
    return out;
  }
}
