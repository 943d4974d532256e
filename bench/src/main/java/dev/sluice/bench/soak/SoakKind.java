package dev.sluice.bench.soak;

/**
 * The soak's kinds of work. Each client does one kind for the whole soak, so that each kind's rate
 * and latency are visible on their own.
 */
public enum SoakKind {
  /** GET one of the fixture's read tables, chosen at random. */
  LOAD("load"),
  /** One append to the client's own table (a fresh table every {@value SoakWriter#PER_TABLE}). */
  COMMIT("commit"),
  /** Create a one-column table, then drop it. */
  CHURN("create+drop"),
  /** An OAuth2 client-credentials grant at the token endpoint. */
  TOKEN("token");

  private final String label;

  SoakKind(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }

  /**
   * Client {@code i} of {@code clients}: a quarter writers, an eighth each churn and tokens (at
   * least one of each), the rest loads; at 8 clients 4 loaders, 2 writers, 1 churner, 1 token
   * client.
   */
  static SoakKind ofClient(int i, int clients) {
    int writers = Math.max(1, clients / 4);
    int churners = Math.max(1, clients / 8);
    int tokens = Math.max(1, clients / 8);
    if (i < writers) {
      return COMMIT;
    }
    if (i < writers + churners) {
      return CHURN;
    }
    if (i < writers + churners + tokens) {
      return TOKEN;
    }
    return LOAD;
  }
}
