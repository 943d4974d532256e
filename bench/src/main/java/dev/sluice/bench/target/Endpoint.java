package dev.sluice.bench.target;

import dev.sluice.bench.http.HttpClients;

/**
 * Where and as whom one benchmark target is reached: an Iceberg REST base (host, port and the path
 * before {@code /v1}), the prefix its {@code /v1/config} announced (empty: none) and the
 * Authorization header to send (null: none, as for the reference server).
 */
public record Endpoint(
    String name, String host, int port, String basePath, String prefix, String authorization) {

  /** {@code <basePath>/v1/<prefix>/} with the prefix part left out when there is none. */
  public String v1() {
    return basePath + "/v1/" + (prefix.isEmpty() ? "" : prefix + "/");
  }

  public String namespaces() {
    return v1() + "namespaces";
  }

  public String tables(String namespace) {
    return v1() + "namespaces/" + namespace + "/tables";
  }

  public String table(String namespace, String table) {
    return tables(namespace) + "/" + table;
  }

  public HttpClients clients(String kind) {
    return HttpClients.of(kind, host, port, authorization);
  }

  public Endpoint withPrefix(String newPrefix) {
    return new Endpoint(name, host, port, basePath, newPrefix, authorization);
  }

  public Endpoint as(String newName, String newAuthorization) {
    return new Endpoint(newName, host, port, basePath, prefix, newAuthorization);
  }
}
