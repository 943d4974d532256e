package dev.sluice.testing.gcp;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

/**
 * An access boundary rule's availability condition, for the subset of CEL the fake evaluates: a
 * disjunction ({@code ||}, with optional parentheses) of
 *
 * <ul>
 *   <li>{@code resource.name.startsWith('<s>')},
 *   <li>{@code resource.name == '<s>'} (IAM conditions' equality on the resource name) and
 *   <li>{@code api.getAttribute('storage.googleapis.com/objectListPrefix',
 *       '<d>').startsWith('<s>')}
 * </ul>
 *
 * String literals are CEL's, single- or double-quoted, with the escapes {@code \\}, {@code \'} and
 * {@code \"}. Anything else is refused by {@link #parse} with a message saying so: Google would
 * accept more (conjunctions, resource.type, other escapes), but a fake that guessed their meaning
 * would prove nothing.
 */
public final class Condition {
  static final String LIST_PREFIX_ATTRIBUTE = "storage.googleapis.com/objectListPrefix";

  /** Google's documented maximum length of an availability condition expression. */
  static final int MAX_EXPRESSION_LENGTH = 2048;

  /** One {@code startsWith} clause: on resource.name, or on the list-prefix attribute. */
  private record Clause(
      boolean onListPrefix, String attributeDefault, String prefix, boolean exact) {
    Clause(boolean onListPrefix, String attributeDefault, String prefix) {
      this(onListPrefix, attributeDefault, prefix, false);
    }

    boolean test(String resourceName, String listPrefix) {
      String subject =
          onListPrefix ? (listPrefix == null ? attributeDefault : listPrefix) : resourceName;
      return exact ? subject.equals(prefix) : subject.startsWith(prefix);
    }
  }

  private final String expression;
  private final List<Clause> clauses;

  private Condition(String expression, List<Clause> clauses) {
    this.expression = expression;
    this.clauses = List.copyOf(clauses);
  }

  /** Parses {@code expression}; an {@link IllegalArgumentException} says what the fake refused. */
  public static Condition parse(String expression) {
    requireNonNull(expression, "expression");
    if (expression.isBlank()) {
      throw new IllegalArgumentException("the availability condition expression is empty");
    }
    if (expression.length() > MAX_EXPRESSION_LENGTH) {
      throw new IllegalArgumentException(
          "the availability condition expression is "
              + expression.length()
              + " characters; the maximum is "
              + MAX_EXPRESSION_LENGTH);
    }
    Parser parser = new Parser(expression);
    List<Clause> clauses = new ArrayList<>();
    parser.disjunction(clauses);
    parser.skipSpace();
    if (!parser.atEnd()) {
      throw parser.unsupported("unexpected text");
    }
    return new Condition(expression, clauses);
  }

  public String expression() {
    return expression;
  }

  /**
   * True when any clause holds for a request on {@code resourceName} ({@code
   * projects/_/buckets/B/objects/NAME} for an object, {@code projects/_/buckets/B} for a list)
   * whose objectListPrefix attribute is {@code listPrefix} (the list's prefix, '' when it has none;
   * null for requests other than a list, where the attribute is absent and its default applies).
   */
  public boolean evaluate(String resourceName, String listPrefix) {
    requireNonNull(resourceName, "resourceName");
    for (Clause clause : clauses) {
      if (clause.test(resourceName, listPrefix)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return expression;
  }

  /** A hand-written recursive descent over the expression's characters. */
  private static final class Parser {
    private final String text;
    private int at;

    Parser(String text) {
      this.text = text;
    }

    void disjunction(List<Clause> into) {
      term(into);
      while (true) {
        skipSpace();
        if (text.startsWith("||", at)) {
          at += 2;
          term(into);
        } else if (text.startsWith("&&", at)) {
          throw unsupported("'&&' (conjunction)");
        } else {
          return;
        }
      }
    }

    private void term(List<Clause> into) {
      skipSpace();
      if (peek() == '(') {
        at++;
        disjunction(into);
        expect(')');
        return;
      }
      String root = identifier();
      if (root.equals("resource")) {
        expect('.');
        String field = identifier();
        if (!field.equals("name")) {
          throw unsupported("resource." + field);
        }
        skipSpace();
        if (text.startsWith("==", at)) {
          at += 2;
          into.add(new Clause(false, "", string(), true));
        } else {
          into.add(new Clause(false, "", startsWith()));
        }
      } else if (root.equals("api")) {
        expect('.');
        String function = identifier();
        if (!function.equals("getAttribute")) {
          throw unsupported("api." + function);
        }
        expect('(');
        String attribute = string();
        if (!attribute.equals(LIST_PREFIX_ATTRIBUTE)) {
          throw unsupported("api.getAttribute('" + attribute + "', ...)");
        }
        expect(',');
        String fallback = string();
        expect(')');
        into.add(new Clause(true, fallback, startsWith()));
      } else {
        throw unsupported("'" + root + "'");
      }
    }

    private String startsWith() {
      expect('.');
      String method = identifier();
      if (!method.equals("startsWith")) {
        throw unsupported("." + method + "(...)");
      }
      expect('(');
      String prefix = string();
      expect(')');
      return prefix;
    }

    private String identifier() {
      skipSpace();
      int start = at;
      while (at < text.length()
          && (Character.isLetterOrDigit(text.charAt(at)) || text.charAt(at) == '_')) {
        at++;
      }
      if (start == at) {
        throw unsupported("expected a name");
      }
      return text.substring(start, at);
    }

    private String string() {
      skipSpace();
      char quote = peek();
      if (quote != '\'' && quote != '"') {
        throw unsupported("expected a quoted string");
      }
      at++;
      StringBuilder value = new StringBuilder();
      while (true) {
        if (atEnd()) {
          throw unsupported("unterminated string");
        }
        char c = text.charAt(at++);
        if (c == quote) {
          return value.toString();
        }
        if (c == '\\') {
          char escaped = atEnd() ? '\0' : text.charAt(at++);
          if (escaped != '\\' && escaped != '\'' && escaped != '"') {
            throw unsupported("the escape \\" + escaped);
          }
          value.append(escaped);
        } else if (c == '\n' || c == '\r') {
          throw unsupported("a line break inside a string");
        } else {
          value.append(c);
        }
      }
    }

    private void expect(char c) {
      skipSpace();
      if (peek() != c) {
        throw unsupported("expected '" + c + "'");
      }
      at++;
    }

    void skipSpace() {
      while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
        at++;
      }
    }

    boolean atEnd() {
      return at >= text.length();
    }

    private char peek() {
      return atEnd() ? '\0' : text.charAt(at);
    }

    IllegalArgumentException unsupported(String what) {
      return new IllegalArgumentException(
          "unsupported availability condition at offset "
              + at
              + " ("
              + what
              + "): the fake evaluates only a disjunction (||) of"
              + " resource.name.startsWith('...') and api.getAttribute('"
              + LIST_PREFIX_ATTRIBUTE
              + "', '...').startsWith('...')");
    }
  }
}
